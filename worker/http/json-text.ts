// A JSON body that is already serialized (a room's cached leaderboard), sent as it is while the
// route keeps its response type for the typed client.
import type { Context, TypedResponse } from "hono";

export function jsonText<T>(c: Context, text: string): Response & TypedResponse<T, 200, "json"> {
  const response: Response = c.body(text, 200, { "content-type": "application/json; charset=UTF-8" });
  return response as Response & TypedResponse<T, 200, "json">;
}
