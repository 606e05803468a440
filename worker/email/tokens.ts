// Single-use links: a 256-bit random token goes into the mailed URL, D1 keeps only its SHA-256.
// Using one is a single conditional UPDATE, so two requests racing with the same link cannot both win.
import { and, eq, gt, isNull } from "drizzle-orm";
import { EMAIL_TOKEN_BYTES } from "../../common/spec";
import { randomToken, sha256Hex } from "../auth/bytes";
import type { Db } from "../db/client";
import { emailTokens, type emailTokenPurposes } from "../db/schema";

export type TokenPurpose = (typeof emailTokenPurposes)[number];

interface NewToken {
  userId: number;
  purpose: TokenPurpose;
  /** The address the link goes to. */
  email: string;
  ttlMs: number;
  /** Voids the user's unused links of this purpose first (a new reset request makes older links useless). */
  replacePrevious?: boolean;
}

/** Stores a new link's hash and returns the raw token for the URL. */
export async function issueToken(db: Db, t: NewToken): Promise<string> {
  const token = randomToken(EMAIL_TOKEN_BYTES);
  const now = Date.now();
  const insert = db
    .insert(emailTokens)
    .values({ id: sha256Hex(token), userId: t.userId, purpose: t.purpose, email: t.email, expiresAt: now + t.ttlMs });
  if (t.replacePrevious) {
    const voidOlder = db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, t.userId), eq(emailTokens.purpose, t.purpose), isNull(emailTokens.usedAt)));
    await db.batch([voidOlder, insert]);
  } else {
    await insert;
  }
  return token;
}

/** Marks the link used and returns whose it was and where it was sent; null when unknown, used, expired or of another purpose. */
export async function useToken(db: Db, token: string, purpose: TokenPurpose): Promise<{ userId: number; email: string } | null> {
  const now = Date.now();
  const row = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.id, sha256Hex(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailTokens.userId, email: emailTokens.email })
    .get();
  return row ?? null;
}
