// Input validation at the HTTP boundary: @hono/zod-validator with the schemas of common/api, in
// the route chain so each route's input types reach the client through AppType. Every failure
// is one refusal: 400 `invalid_request` with the first rule broken as its message.
import type { Context, ValidationTargets } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import { idParamSchema } from "../../common/api/params";
import type { AppEnv } from "./app-env";
import { badRequest } from "./errors";

type Checked = { success: true } | { success: false; error: { issues: readonly { message: string }[] } };

function refuse(result: Checked): void {
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? "Invalid request");
}

const malformedJson = () => badRequest("Malformed JSON body", "malformed_json");

const check = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, refuse);

/**
 * Validates one part of the request (`json`, `query`, `param`, ...) with a schema, or with a
 * schema built from the deployment's variables. A JSON body that does not parse is 400
 * `malformed_json`; no body at all reads as `{}`, so a POST whose route takes no fields may send none.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T | ((env: Env) => T)) {
  const fixed = typeof schema === "function" ? null : schema;
  const fixedCheck = fixed && check(target, fixed);
  const middleware: ReturnType<typeof check<T, Target>> = async (c, next) => {
    const current = fixed ?? (schema as (env: Env) => T)((c as Context<AppEnv>).env);
    const checked = fixedCheck ?? check(target, current);
    if (target !== "json") return checked(c, next);
    if ((await c.req.text()).trim() === "") {
      const result = current.safeParse({});
      refuse(result);
      c.req.addValidatedData("json", result.data as object);
      return next();
    }
    let reached = false;
    try {
      return await checked(c, () => {
        reached = true;
        return next();
      });
    } catch (e) {
      // Hono's validator throws before it calls next when the body does not parse.
      if (!reached && e instanceof HTTPException) throw malformedJson();
      throw e;
    }
  };
  return middleware;
}

/** `/:id` as a positive whole number. */
export const idParam = validate("param", idParamSchema);

/** A POST that takes no fields: any JSON object or no body; malformed JSON is still refused. */
export const noFields = validate("json", z.object({}));
