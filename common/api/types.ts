// Response shapes of the API (USD amounts as numbers with 2 decimals, times as ISO strings).
import type { Preferences, SocialLinks } from "./accounts";

export interface User {
  id: number;
  username: string;
  email: string;
  avatar: string | null;
  bio: string | null;
  location: string | null;
  /** ISO country code: detected at sign-up (or first login), changeable in the profile; the regional leaderboard's region. */
  country: string | null;
  socialLinks: SocialLinks;
  preferences: Preferences;
  balance: number;
  level: number;
  experiencePoints: number;
  tournamentsPlayed: number;
  tournamentsWon: number;
  role: "player" | "admin";
  twoFactorEnabled: boolean;
  /** The player opened the verification link sent to `email`; withdrawals need it. */
  emailVerified: boolean;
  createdAt: string;
}

export type TournamentStatus = "upcoming" | "live" | "completed" | "cancelled";
/** standard: scheduled or operator-made; practice: a category's always-open practice entry; practice_run: one player's run of it. */
export type TournamentKind = "standard" | "practice" | "practice_run";

/** self_paced: each player gets the next question when they ask; live_show: everyone gets each question at the same moment. */
export type TournamentFormat = "self_paced" | "live_show";

export interface Category {
  id: number;
  slug: string;
  name: string;
  description: string;
  icon: string;
  activeTournaments: number;
}

export interface Tournament {
  id: number;
  title: string;
  description: string;
  categoryId: number;
  categoryName: string;
  entryFee: number;
  prizePool: number;
  maxParticipants: number | null;
  currentParticipants: number;
  minLevel: number;
  startTime: string;
  endTime: string | null;
  status: TournamentStatus;
  imageUrl: string | null;
  isFree: boolean;
  kind: TournamentKind;
  format: TournamentFormat;
  createdAt: string;
}

export interface Transaction {
  id: number;
  userId: number;
  amount: number;
  type:
    | "deposit"
    | "withdrawal"
    | "tournament_entry"
    | "prize"
    | "refund"
    | "card_refund"
    | "chargeback"
    | "chargeback_reversal"
    | "adjustment";
  /**
   * held: a prize under fair-play review, not in the balance; forfeited: a held prize that went to the house;
   * refunded: a card payment refused when it arrived (a limit, a break…) and sent back to the card, never in the balance.
   */
  status: "completed" | "pending" | "failed" | "held" | "forfeited" | "refunded";
  reference: string | null;
  description: string | null;
  createdAt: string;
}
