// POST /api/receipts/verify: anyone holding an answer receipt can ask whether this server signed
// it, unchanged (docs/decisions/009-answer-receipts.md). No sign-in: a receipt is meant to be
// shown to others.
import { Hono } from "hono";
import { answerReceiptSchema, type ReceiptVerification } from "../../common/api/fair-play";
import { isGenuineReceipt } from "../fair-play/receipts";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const receiptRoutes = new Hono<AppEnv>().post("/verify", validate("json", answerReceiptSchema), (c) =>
  c.json({ genuine: isGenuineReceipt(c.env, c.req.valid("json")) } satisfies ReceiptVerification),
);
