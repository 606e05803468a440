// Rows to API shapes: cents to USD, epoch ms to ISO strings, JSON columns to objects.
import type { Transaction, User } from "../../common/api/types";
import { centsToDollars } from "../../common/domain/money";
import type { transactions, users } from "./schema";

export const iso = (ms: number) => new Date(ms).toISOString();

/** Where others load a player's avatar; the version makes a changed avatar a new URL. */
export const avatarUrl = (username: string, version: number) => `/api/users/${encodeURIComponent(username)}/avatar?v=${version}`;

export function parseJsonObject<T extends object>(text: string | null | undefined): T {
  if (!text) return {} as T;
  try {
    const v: unknown = JSON.parse(text);
    return (v && typeof v === "object" && !Array.isArray(v) ? v : {}) as T;
  } catch {
    return {} as T;
  }
}

/** The signed-in user's own view. Never includes the password hash or 2FA secrets. */
export function presentUser(u: typeof users.$inferSelect): User {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    avatar: u.avatar,
    bio: u.bio,
    location: u.location,
    country: u.country,
    socialLinks: parseJsonObject(u.socialLinks),
    // `theme` stays absent until the player saves one, so the web app can tell a choice from a default.
    preferences: { showLevel: true, showWins: true, showSocial: true, ...parseJsonObject(u.preferences) },
    balance: centsToDollars(u.balanceCents),
    level: u.level,
    experiencePoints: u.experiencePoints,
    tournamentsPlayed: u.tournamentsPlayed,
    tournamentsWon: u.tournamentsWon,
    role: u.role,
    twoFactorEnabled: u.totpEnabled,
    emailVerified: u.emailVerifiedAt !== null,
    createdAt: iso(u.createdAt),
  };
}

export function presentTransaction(t: typeof transactions.$inferSelect): Transaction {
  return {
    id: t.id,
    userId: t.userId,
    amount: centsToDollars(t.amountCents),
    type: t.type,
    status: t.status,
    reference: t.reference,
    description: t.description,
    createdAt: iso(t.createdAt),
  };
}
