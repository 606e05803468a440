import { DrizzleQueryError } from "drizzle-orm";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error a client caused or may see: its status and message become the `{message}` response. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra fields sent beside `message`, for errors a client must tell apart. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = "Not authenticated") => new HttpError(401, message);
export const forbidden = (message = "Forbidden") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

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
      const text = e instanceof DrizzleQueryError ? "Failed query" : (messageOf(e).split("\n")[0] ?? "").split(/params:/i)[0]!.slice(0, 300);
      return `${name}: ${text}`;
    })
    .join(" <- caused by ");
}
