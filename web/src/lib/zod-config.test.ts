// The page's CSP refuses eval: zod must never probe for it, and it does not once configured jitless.
import "@/lib/zod-config";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loginSchema } from "@common/api/accounts";

describe("zod in the web app", () => {
  it("is jitless once lib/zod-config has run: it parses objects without compiling code", () => {
    expect(z.config().jitless).toBe(true);
    expect(z.core.util.allowsEval.value).toBe(false);
    expect(loginSchema.safeParse({ username: "quiz_master", password: "secret123" }).success).toBe(true);
  });
});
