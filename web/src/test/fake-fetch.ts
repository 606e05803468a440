// A stand-in for the Worker in component tests: `fetch` answers from a table of routes and
// records every request, so tests can assert what was sent.
import { vi } from "vitest";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

export type FakeAnswer = { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;
export type FakeRoute = (req: FakeRequest) => FakeAnswer;

/** `{ "GET /api/session": () => ({ body: { user } }) }`; an unknown route answers 404 so a test notices. */
export function fakeFetch(routes: Record<string, FakeRoute>) {
  const requests: FakeRequest[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const req: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    requests.push(req);
    const route = routes[`${method} ${url.pathname}`];
    const answer = route ? await route(req) : { status: 404, body: { message: `no fake route for ${method} ${url.pathname}` } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fn);
  return {
    requests,
    /** Requests to one route, e.g. calls("POST /api/deposit/confirm"). */
    calls: (key: string) => requests.filter((r) => `${r.method} ${r.path}` === key),
  };
}

/** A promise the test settles by hand, for asserting loading states. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
