import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { sha256Hex } from "./bytes";
import { verifyTotp } from "./totp";
import type { SessionUser } from "./session";

/** A current TOTP code, or an unused recovery code (which is then spent). */
export async function verifySecondFactor(db: Db, user: SessionUser, code: string): Promise<boolean> {
  if (user.totpSecret && verifyTotp(user.totpSecret, code.replace(/\s/g, ""))) return true;
  const digest = sha256Hex(code.trim().toUpperCase());
  const codes: string[] = user.recoveryCodes ? JSON.parse(user.recoveryCodes) : [];
  if (!codes.includes(digest)) return false;
  await db
    .update(users)
    .set({ recoveryCodes: JSON.stringify(codes.filter((c) => c !== digest)) })
    .where(eq(users.id, user.id));
  return true;
}
