import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "./errors";

/** Parses the JSON body with a zod schema; a malformed body or the first failed rule is a 400. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let data: unknown = {};
  if (text.trim() !== "") {
    try {
      data = JSON.parse(text);
    } catch {
      throw badRequest("Malformed JSON body");
    }
  }
  return parse(schema, data);
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(issue?.message ?? "Invalid request");
  }
  return result.data;
}

/** A positive integer path parameter such as a tournament id. */
export function idParam(c: Context, name = "id"): number {
  const raw = c.req.param(name) ?? "";
  if (!/^\d{1,12}$/.test(raw) || Number(raw) < 1) throw badRequest(`Invalid ${name}`);
  return Number(raw);
}
