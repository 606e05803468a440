// Tournament rows to API shapes: cents to USD, epoch ms to ISO strings.
import type { Category, Tournament } from "../../common/api/types";
import { centsToDollars } from "../../common/domain/money";
import type { categories, tournaments } from "./schema";
import { iso, parseJsonObject } from "./present";
import type { Preferences } from "../../common/api/accounts";

export function presentTournament(t: typeof tournaments.$inferSelect, categoryName: string): Tournament {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    categoryId: t.categoryId,
    categoryName,
    entryFee: centsToDollars(t.entryFeeCents),
    prizePool: centsToDollars(t.prizePoolCents),
    maxParticipants: t.maxParticipants,
    currentParticipants: t.currentParticipants,
    minLevel: t.minLevel,
    startTime: iso(t.startTime),
    endTime: t.endTime === null ? null : iso(t.endTime),
    status: t.status,
    imageUrl: t.imageUrl,
    isFree: t.isFree,
    kind: t.kind,
    format: t.format,
    createdAt: iso(t.createdAt),
  };
}

export function presentCategory(c: typeof categories.$inferSelect, activeTournaments: number): Category {
  return { id: c.id, slug: c.slug, name: c.name, description: c.description, icon: c.icon, activeTournaments };
}

/** What a player shows publicly; every switch defaults to on. */
export function visibility(preferences: string | null): { showLevel: boolean; showWins: boolean; showSocial: boolean } {
  const p = parseJsonObject<Preferences>(preferences);
  return { showLevel: p.showLevel !== false, showWins: p.showWins !== false, showSocial: p.showSocial !== false };
}

/** A player's level as others may see it: null when they hide it. */
export const publicLevel = (level: number, preferences: string | null) => (visibility(preferences).showLevel ? level : null);
