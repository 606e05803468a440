// The one API client. Every call sends cookies and JSON; a non-ok answer becomes an ApiError
// whose message is what a person may read: the server's `{message}`, else a plain sentence for
// the status. Code branches on `code`, the server's stable name for the refusal
// (docs/decisions/006-typed-contract.md), never on the message.
import type { QueryFunction } from "@tanstack/react-query";
import { REQUEST_FAILED } from "@common/messages";
import { errorCodeSchema, type ErrorCode } from "@common/api/errors";

function jsonField(text: string, name: string): unknown {
  try {
    const body: unknown = JSON.parse(text);
    return body !== null && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

/** The sentence for a failure without a message of the server's own; status 0 = no answer at all. */
function fallbackFor(status: number): string {
  if (status === 0) return REQUEST_FAILED.network;
  if (status === 401) return REQUEST_FAILED.unauthorized;
  if (status === 403) return REQUEST_FAILED.forbidden;
  if (status === 404) return REQUEST_FAILED.notFound;
  if (status === 429) return REQUEST_FAILED.tooMany;
  if (status >= 500) return REQUEST_FAILED.server;
  return REQUEST_FAILED.other;
}

export class ApiError extends Error {
  /** What the server refused, by its stable name; undefined when the answer carried none (a proxy's page, no answer). */
  readonly code: ErrorCode | undefined;

  constructor(
    readonly status: number,
    /** The raw response body; never shown. */
    readonly text: string,
  ) {
    const own = jsonField(text, "message");
    super(typeof own === "string" && own.trim() !== "" ? own : fallbackFor(status));
    const code = errorCodeSchema.safeParse(jsonField(text, "code"));
    this.code = code.success ? code.data : undefined;
  }

  /** The server's `{message}` field when there is one. */
  get serverMessage(): string | undefined {
    const own = jsonField(this.text, "message");
    return typeof own === "string" && own.trim() !== "" ? own : undefined;
  }

}

/** fetch, with "no answer" (offline, DNS, refused) as an ApiError like any other failure. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new ApiError(0, "");
  }
}

async function throwIfNotOk(res: Response) {
  if (res.ok) return;
  throw new ApiError(res.status, await res.text().catch(() => ""));
}

/** The body of an ok answer; one that is not JSON (a proxy's page) is a failure too. */
async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, "");
  }
}

export async function apiRequest<T = unknown>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await send(url, {
    method,
    headers: data !== undefined ? { "Content-Type": "application/json" } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: "include",
  });
  await throwIfNotOk(res);
  return readJson<T>(res);
}

/**
 * What to tell a person about a failed call: the server's message, else `fallback` (the
 * action's own wording), else the plain sentence for the status. Never raw text or JSON.
 */
export const errorMessage = (error: unknown, fallback?: string): string =>
  error instanceof ApiError ? (error.serverMessage ?? fallback ?? error.message) : (fallback ?? REQUEST_FAILED.other);

type On401 = "returnNull" | "throw";

/** Default query function: GET the query key joined with "/". */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await send(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return readJson<T>(res);
  };
}
