import { DrizzleQueryError } from "drizzle-orm";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody, ErrorCode } from "../../common/api/errors";
import { AUTH } from "../../common/messages";

/** An error a client caused or may see: its status, code and message become the response. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    /** Extra fields sent beside `code` and `message`, for errors a client must tell apart. */
    readonly details?: Omit<ApiErrorBody, "code" | "message">,
  ) {
    super(message);
  }

  get body(): ApiErrorBody {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export const badRequest = (message: string, code: ErrorCode = "invalid_request") => new HttpError(400, code, message);
export const unauthorized = (message: string = AUTH.notAuthenticated, code: ErrorCode = "not_authenticated") =>
  new HttpError(401, code, message);
export const forbidden = (message = "Forbidden", code: ErrorCode = "forbidden") => new HttpError(403, code, message);
export const notFound = (message = "Not found", code: ErrorCode = "not_found") => new HttpError(404, code, message);
export const conflict = (message: string, code: ErrorCode = "conflict") => new HttpError(409, code, message);

/** The error and its causes, outermost first (drizzle wraps the driver's error in its own). */
function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && chain.length < 8; e = e instanceof Error ? e.cause : undefined) chain.push(e);
  return chain;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A write refused by a unique index, wherever in the cause chain the driver's text sits. */
export const isUniqueViolation = (err: unknown) => causeChain(err).some((e) => messageOf(e).includes("UNIQUE constraint failed"));

/**
 * One line for the error log: each error's class and the first line of its message, with a
 * failed query reduced to "Failed query". Query text and bound parameters (password hashes,
 * emails, names) never reach the log.
 */
export function describeError(err: unknown): string {
  return causeChain(err)
    .map((e) => {
      const name = e instanceof DrizzleQueryError ? "DrizzleQueryError" : e instanceof Error ? e.name : typeof e;
      const text =
        e instanceof DrizzleQueryError ? "Failed query" : (messageOf(e).split("\n")[0] ?? "").split(/params:/i)[0]!.slice(0, 300);
      return `${name}: ${text}`;
    })
    .join(" <- caused by ");
}
