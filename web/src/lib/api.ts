// A refused or failed call, as the web app sees it (the calls themselves: api-client.ts). Its
// message is what a person may read: the server's `{message}`, else a plain sentence for the
// status. Code branches on `code`, the server's stable name for the refusal
// (docs/decisions/006-typed-contract.md), never on the message.
import { REQUEST_FAILED } from "@common/messages";
import { ERROR_CODES, type ErrorCode } from "@common/api/errors";

function jsonField(text: string, name: string): unknown {
  try {
    const body: unknown = JSON.parse(text);
    return body !== null && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

// A set, not the codes' zod schema: this file is on every page's first download, and zod is not.
const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);
const isErrorCode = (v: unknown): v is ErrorCode => typeof v === "string" && KNOWN_CODES.has(v);

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
    const code = jsonField(text, "code");
    this.code = isErrorCode(code) ? code : undefined;
  }

  /** The server's `{message}` field when there is one. */
  get serverMessage(): string | undefined {
    const own = jsonField(this.text, "message");
    return typeof own === "string" && own.trim() !== "" ? own : undefined;
  }
}

/**
 * What to tell a person about a failed call: the server's message, else `fallback` (the
 * action's own wording), else the plain sentence for the status. Never raw text or JSON.
 */
export const errorMessage = (error: unknown, fallback?: string): string =>
  error instanceof ApiError ? (error.serverMessage ?? fallback ?? error.message) : (fallback ?? REQUEST_FAILED.other);
