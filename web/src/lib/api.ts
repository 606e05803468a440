// The one API client. Every call sends cookies and JSON; a non-ok answer becomes an ApiError
// whose message is SPEC.md's "{status}: {response text}".
import type { QueryFunction } from "@tanstack/react-query";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    message: string,
  ) {
    super(message);
  }

  /** The server's `{message}` field when there is one, for toasts that show it. */
  get serverMessage(): string | undefined {
    try {
      const body = JSON.parse(this.text) as { message?: unknown };
      return typeof body.message === "string" ? body.message : undefined;
    } catch {
      return undefined;
    }
  }

  /** Any other field of the error body (e.g. twoFactorRequired). */
  field(name: string): unknown {
    try {
      return (JSON.parse(this.text) as Record<string, unknown>)[name];
    } catch {
      return undefined;
    }
  }
}

async function throwIfNotOk(res: Response) {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, text, `${res.status}: ${text}`);
}

export async function apiRequest<T = unknown>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { "Content-Type": "application/json" } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: "include",
  });
  await throwIfNotOk(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The server's message for a failed call, else the given fallback. */
export const errorMessage = (error: unknown, fallback: string) =>
  (error instanceof ApiError ? error.serverMessage : undefined) ?? (error instanceof Error && !(error instanceof ApiError) ? error.message : fallback);

type On401 = "returnNull" | "throw";

/** Default query function: GET the query key joined with "/". */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}
