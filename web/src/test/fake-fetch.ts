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

/** `body` is sent as JSON; `text` as it is (a file download), with `headers` beside it. */
export type FakeReply = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };
export type FakeAnswer = FakeReply | Promise<FakeReply>;
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
    if (answer.text !== undefined) {
      return new Response(answer.text, { status, headers: { "Content-Type": "text/plain; charset=UTF-8", ...answer.headers } });
    }
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { "Content-Type": "application/json", ...answer.headers },
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
