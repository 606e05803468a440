// Private tournaments Elite players create (docs/custom-tournaments.md): who may create one, the
// level a fee asks of its players, and the invite code's form. Pure, so web and Worker agree.
import { CUSTOM_TOURNAMENT_MIN_LEVEL, FEE_TIERS, INVITE_CODE_LENGTH } from "../spec";
import type { Cents } from "./money";

/** Elite (level 10 and up) may create custom tournaments, as the level texts promise. */
export const mayCreateCustom = (level: number) => level >= CUSTOM_TOURNAMENT_MIN_LEVEL;

/**
 * The level a custom tournament asks of its players: that of the fee tier its entry fee is (a
 * premium or elite fee asks what it asks on the schedule); free ones are open to every level.
 */
export function customMinLevel(entryFeeCents: Cents): number {
  return FEE_TIERS.find((t) => t.entryFeeCents === entryFeeCents)?.minLevel ?? 1;
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 4648 base32, lower case, without padding. */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export const INVITE_CODE_PATTERN = new RegExp(`^[a-z2-7]{${INVITE_CODE_LENGTH}}$`);

/**
 * What a player typed or pasted, as a code: the part after the last "/" of a link, without
 * spaces or dashes, lower case. Null when it cannot be a code.
 */
export function normalizeInviteCode(input: string): string | null {
  const tail = input.trim().split("/").filter(Boolean).pop() ?? "";
  const code = tail.replace(/[\s-]/g, "").toLowerCase();
  return INVITE_CODE_PATTERN.test(code) ? code : null;
}

/** The invite link's path on the site. */
export const invitePath = (code: string) => `/t/${code}`;

/** The creator may cancel only while the tournament is upcoming and nobody holds a seat. */
export const creatorMayCancel = (t: { status: string; currentParticipants: number }) =>
  t.status === "upcoming" && t.currentParticipants === 0;
