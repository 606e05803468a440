// The system of record. Money columns are integer cents; times are epoch milliseconds.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TOURNAMENT_FORMATS } from "../../common/spec";
import { APPROVAL_KINDS } from "../../common/api/console";
import { LEGAL_DOCUMENT_IDS } from "../../common/legal/legal-catalog";

const now = sql`(cast(unixepoch('subsecond') * 1000 as integer))`;

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    email: text("email").notNull(),
    avatar: text("avatar"),
    bio: text("bio"),
    location: text("location"),
    /** JSON object with keys twitter, facebook, instagram, linkedin, github. */
    socialLinks: text("social_links"),
    /** JSON object: theme and public-visibility switches. */
    preferences: text("preferences"),
    balanceCents: integer("balance_cents").notNull().default(0),
    level: integer("level").notNull().default(1),
    experiencePoints: integer("experience_points").notNull().default(0),
    tournamentsPlayed: integer("tournaments_played").notNull().default(0),
    tournamentsWon: integer("tournaments_won").notNull().default(0),
    role: text("role", { enum: ["player", "admin"] })
      .notNull()
      .default("player"),
    totpSecret: text("totp_secret"),
    totpEnabled: integer("totp_enabled", { mode: "boolean" }).notNull().default(false),
    /** JSON array of SHA-256 hex digests of unused recovery codes. */
    recoveryCodes: text("recovery_codes"),
    /** Set when the player deleted the account: personal data is erased, the row stays for the ledger. */
    deletedAt: integer("deleted_at"),
    /** ISO 3166-1 alpha-2 country, from Cloudflare's request.cf.country at sign-up and login, or chosen in the profile. */
    country: text("country"),
    /** Bumped whenever the avatar changes: it versions the avatar URL and is its ETag. */
    avatarVersion: integer("avatar_version").notNull().default(0),
    /** When the player proved they read mail at `email` (a link we sent); null until then, and again after an email change. */
    emailVerifiedAt: integer("email_verified_at"),
    /** ISO date (YYYY-MM-DD), asked before the first deposit or paid join; docs/responsible-play.md. */
    dateOfBirth: text("date_of_birth"),
    /** The last TOTP time step accepted, so one code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    /** Set when a card refund or dispute took more than the balance held: no joins, no withdrawals until settled. */
    frozenAt: integer("frozen_at"),
    frozenReason: text("frozen_reason"),
    /** What the player still owes the house after a refund or dispute the balance could not cover. */
    owedCents: integer("owed_cents").notNull().default(0),
    /** Set by an operator: no joins and no deposits; withdrawing the balance stays possible. */
    suspendedAt: integer("suspended_at"),
    /** Set by an operator: the account cannot sign in or play; withdrawing the balance stays possible through support. */
    bannedAt: integer("banned_at"),
    /** The operator's note on the suspension or ban (shown to operators only). */
    moderationNote: text("moderation_note"),
    /**
     * Set when this account verified the identity of a person another account verified first
     * (identity_owners): the account it is linked to. Free play only: no deposits, paid or prize
     * joins, withdrawals (docs/identity-and-tax.md). On the user row so the money doors read it for free.
     */
    identityDuplicateOf: integer("identity_duplicate_of"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    check("users_balance_non_negative", sql`${t.balanceCents} >= 0`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 hex of the cookie token; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** When the owner last re-entered the password (and a TOTP code when 2FA is on) in this session: step-up for sensitive actions. */
    stepUpAt: integer("step_up_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Fixed-window counters for login and registration throttling. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

/**
 * Failed sign-ins per account and address: each failure pushes the next allowed attempt further
 * out, so guessing is slow while nobody else can lock the owner out from another address.
 */
export const loginFailures = sqliteTable("login_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lockedUntil: integer("locked_until").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const emailTokenPurposes = ["verify_email", "reset_password"] as const;

/** Single-use links sent by email; only the SHA-256 of the token is kept. */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: emailTokenPurposes }).notNull(),
    /** The address the link was sent to: verifying proves this address, not a later one. */
    email: text("email").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("email_tokens_user_idx").on(t.userId, t.purpose)],
);

/** Mail kept locally instead of sent, when no email provider is configured (the dev outbox page). */
export const emailOutbox = sqliteTable("email_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  toAddress: text("to_address").notNull(),
  subject: text("subject").notNull(),
  textBody: text("text_body").notNull(),
  kind: text("kind").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * Idempotency keys of money-moving requests, per user: the first request's answer is kept and a
 * retry with the same key gets it back without moving money again.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The operation (withdrawal, deposit_intent, join:{id}, leave:{id}); a key reused for another one is refused. */
    scope: text("scope").notNull(),
    /** HMAC-SHA256 (keyed by RECEIPT_SECRET) of the request's canonical body, so a stored row reveals nothing of it (bank details); the same key with other parameters is refused. */
    fingerprint: text("fingerprint").notNull(),
    /** The ledger reference the request committed, so a lost answer can be rebuilt from the ledger. */
    reference: text("reference"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const playLimitKinds = [
  "deposit_daily",
  "deposit_weekly",
  "deposit_monthly",
  "entry_fees_daily",
  "entry_fees_weekly",
  "entry_fees_monthly",
] as const;

/**
 * Limits a player set on themselves. Lowering applies at once; raising (or removing) waits
 * in pending_* until pending_from, so a moment's impulse cannot lift a limit.
 */
export const playLimits = sqliteTable(
  "play_limits",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: playLimitKinds }).notNull(),
    /** Null: no limit. */
    amountCents: integer("amount_cents"),
    pendingAmountCents: integer("pending_amount_cents"),
    /** When the pending change takes effect; null when none is pending. */
    pendingFrom: integer("pending_from"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

export const exclusionKinds = ["cool_off", "self_exclusion"] as const;

/** Cool-offs and self-exclusions; neither can be ended early. ends_at null: permanent. */
export const exclusions = sqliteTable(
  "exclusions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: exclusionKinds }).notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("exclusions_user_idx").on(t.userId, t.endsAt)],
);

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  icon: text("icon").notNull(),
  /** Cache refreshed by the scheduler; the API counts live rows. */
  activeTournaments: integer("active_tournaments").notNull().default(0),
});

export const tournamentStatuses = ["upcoming", "live", "completed", "cancelled"] as const;
/**
 * standard: scheduled or operator-created; practice: the always-open practice entry of a category,
 * which nobody joins directly; practice_run: one player's run of ten questions started from it.
 */
export const tournamentKinds = ["standard", "practice", "practice_run"] as const;

export const tournaments = sqliteTable(
  "tournaments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    entryFeeCents: integer("entry_fee_cents").notNull().default(0),
    prizePoolCents: integer("prize_pool_cents").notNull().default(0),
    /** Null means unlimited (practice). */
    maxParticipants: integer("max_participants"),
    currentParticipants: integer("current_participants").notNull().default(0),
    minLevel: integer("min_level").notNull().default(1),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time"),
    status: text("status", { enum: tournamentStatuses }).notNull().default("upcoming"),
    imageUrl: text("image_url"),
    isFree: integer("is_free", { mode: "boolean" }).notNull().default(false),
    kind: text("kind", { enum: tournamentKinds }).notNull().default("standard"),
    format: text("format", { enum: TOURNAMENT_FORMATS }).notNull().default("self_paced"),
    /**
     * Candidates per slot of the difficulty ramp: 1, everyone gets the same questions in order;
     * more, each player draws one per slot from the tournament's pool (tournament_questions in
     * slot-major order: slot * questionDraw + candidate). docs/fair-play.md.
     */
    questionDraw: integer("question_draw").notNull().default(1),
    /** SHA-256 commitment to the questions and their answers (the root of a Merkle tree, decision 015), published before the start. */
    fairnessCommitment: text("fairness_commitment"),
    /** The player of a practice run; null for every other kind. */
    ownerUserId: integer("owner_user_id").references(() => users.id),
    /** When an operator announced it as a featured event (docs/featured-events.md); null: not featured. */
    featuredAt: integer("featured_at"),
    /** A featured event's registration for everyone; null: 72 hours before the start. Level 6+ a day earlier. */
    registrationOpensAt: integer("registration_opens_at"),
    /** The Elite player who created a private custom tournament; null for every other (docs/custom-tournaments.md). */
    creatorUserId: integer("creator_user_id").references(() => users.id),
    /**
     * A private tournament's invite code (128 random bits, base32): only a player who holds it
     * finds or joins the tournament; it is in no list. Null for every public tournament.
     */
    inviteCode: text("invite_code"),
    /** Why a cancelled tournament was cancelled: too few players joined in time, an operator (with their reason), or a custom tournament's creator. */
    cancelCause: text("cancel_cause", { enum: ["too_few_players", "operator", "creator"] }),
    /** The operator's reason, as shown to players; null unless cancel_cause is operator. */
    cancelReason: text("cancel_reason"),
    settledAt: integer("settled_at"),
    /**
     * Play shards of a live show (docs/decisions/011-one-tournament-past-one-durable-object.md):
     * 1, one room; more, a coordinator and this many regional shards. Set at creation from the
     * capacity and TOURNAMENT_SHARD_SIZE and never changed after.
     */
    shardCount: integer("shard_count").notNull().default(1),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("tournaments_status_start_idx").on(t.status, t.startTime),
    index("tournaments_category_idx").on(t.categoryId, t.status),
    index("tournaments_owner_idx").on(t.ownerUserId, t.status),
    index("tournaments_featured_idx").on(t.featuredAt, t.startTime),
    uniqueIndex("tournaments_invite_code_unique").on(t.inviteCode),
    index("tournaments_creator_idx").on(t.creatorUserId, t.status),
    check("tournaments_fee_non_negative", sql`${t.entryFeeCents} >= 0`),
  ],
);

export const tournamentParticipants = sqliteTable(
  "tournament_participants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    score: integer("score").notNull().default(0),
    hasCompleted: integer("has_completed", { mode: "boolean" }).notNull().default(false),
    rank: integer("rank"),
    prizeCents: integer("prize_cents").notNull().default(0),
    questionsAnswered: integer("questions_answered").notNull().default(0),
    correctAnswers: integer("correct_answers").notNull().default(0),
    totalResponseMs: integer("total_response_ms").notNull().default(0),
    xpEarned: integer("xp_earned").notNull().default(0),
    finishedAt: integer("finished_at"),
    joinedAt: integer("joined_at").notNull().default(now),
    /** Keyed hashes of the device cookie and the network address at the join, for the collusion check. */
    deviceHash: text("device_hash"),
    networkHash: text("network_hash"),
    /** JSON array of fair-play flags the room raised at settlement (common/api/fair-play.ts); null when none. */
    flags: text("flags"),
    /** When the host disqualified the player (out of the ranking; docs/operating.md, "Host tools"), and why; null otherwise. */
    disqualifiedAt: integer("disqualified_at"),
    disqualifiedReason: text("disqualified_reason"),
    /** The play shard the player was given at the join (0 in a one-room tournament); a reconnect lands on it again. */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [uniqueIndex("participants_tournament_user_unique").on(t.tournamentId, t.userId), index("participants_user_idx").on(t.userId)],
);

export const questions = sqliteTable(
  "questions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    question: text("question").notNull(),
    difficultyLevel: integer("difficulty_level").notNull().default(1),
    questionType: text("question_type").notNull().default("multiple_choice"),
    correctAnswer: text("correct_answer").notNull(),
    /** JSON array of the option texts. */
    options: text("options").notNull(),
    explanation: text("explanation"),
    image: text("image"),
    /** Seconds. */
    timeLimit: integer("time_limit").notNull().default(30),
    points: integer("points").notNull().default(10),
    /** JSON array of tags. */
    tags: text("tags").notNull().default("[]"),
    /** seed (the public demo bank) or import (an operator's upload). */
    generatedBy: text("generated_by"),
    /**
     * Prize tournaments holding it. A question enters prize play only while this is 0 (used once);
     * a tournament that ends without ever issuing it gives the use back (docs/questions.md).
     */
    paidUses: integer("paid_uses").notNull().default(0),
    /**
     * When its correct answer was first shown to someone who is not an operator, or its text was
     * issued in a prize tournament that ended: it is burned, never again in prize play.
     */
    answerShownAt: integer("answer_shown_at"),
    /** Marked by an operator for practice only: never drawn into prize play. */
    practiceOnly: integer("practice_only", { mode: "boolean" }).notNull().default(false),
    /** Set when an operator retires the question from every draw (practice too); null again when restored. */
    retiredAt: integer("retired_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("questions_category_text_unique").on(t.categoryId, t.question),
    index("questions_category_difficulty_idx").on(t.categoryId, t.difficultyLevel),
  ],
);

/**
 * The scheduler's latest refusal per category: a paid slot it could not fill for want of fresh
 * questions. Cleared when it fills one again; the console shows it (docs/questions.md).
 */
export const questionShortfalls = sqliteTable("question_shortfalls", {
  categoryId: integer("category_id")
    .primaryKey()
    .references(() => categories.id),
  /** The slot's start time. */
  slotStart: integer("slot_start").notNull(),
  needed: integer("needed").notNull(),
  available: integer("available").notNull(),
  notedAt: integer("noted_at").notNull().default(now),
});

export const tournamentQuestions = sqliteTable(
  "tournament_questions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    order: integer("order").notNull(),
  },
  (t) => [uniqueIndex("tournament_questions_order_unique").on(t.tournamentId, t.order)],
);

export const userResponses = sqliteTable(
  "user_responses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => questions.id),
    /** Null when the question timed out unanswered. */
    answer: text("answer"),
    isCorrect: integer("is_correct", { mode: "boolean" }).notNull(),
    /** Milliseconds, measured by the server. */
    responseTime: integer("response_time").notNull(),
    pointsEarned: integer("points_earned").notNull().default(0),
    /** When the server received the answer (null when it timed out): part of the answer's receipt. */
    answeredAt: integer("answered_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("responses_unique").on(t.tournamentId, t.userId, t.questionId), index("responses_user_idx").on(t.userId)],
);

/**
 * card_refund and chargeback take a reversed card payment back out of the balance;
 * chargeback_reversal returns it when the house wins the dispute; adjustment is an operator's
 * manual correction (with its reason, after a second operator's approval).
 */
export const transactionTypes = [
  "deposit",
  "withdrawal",
  "tournament_entry",
  "prize",
  "refund",
  "card_refund",
  "chargeback",
  "chargeback_reversal",
  "adjustment",
] as const;
/**
 * held: a prize under fair-play review, not in the balance until released (completed) or forfeited.
 * refunded: a card payment that could not be credited (a limit, a break, a suspension… at the
 * moment it arrived) and went back to the card; never in the balance, final (migrations/0010).
 */
export const transactionStatuses = ["completed", "pending", "failed", "held", "forfeited", "refunded"] as const;

/**
 * The money ledger. Triggers (migrations/0001) apply every row to users.balance_cents,
 * so a user's balance always equals the sum of their completed and pending rows (migrations/0005
 * keeps held and forfeited prizes out).
 */
export const transactions = sqliteTable(
  "transactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    type: text("type", { enum: transactionTypes }).notNull(),
    status: text("status", { enum: transactionStatuses }).notNull().default("completed"),
    /** Unique per outside event (pi_…, entry:{t}:{u}, prize:{t}:{u}, refund:{t}:{u}, payout:{id}, cardrefund:{pi}:{withdrawal group}). */
    reference: text("reference").unique(),
    /** Deposits only: which payment provider took the card (sandbox money is never withdrawable off the sandbox hosts). */
    provider: text("provider", { enum: ["stripe", "sandbox"] }),
    description: text("description"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("transactions_user_idx").on(t.userId, t.createdAt), index("transactions_type_time_idx").on(t.type, t.createdAt)],
);

/**
 * Money that stays with the house rather than going to a player, recorded so operators can
 * account for every cent of a pool: today, a prize share nobody qualified for.
 */
export const houseLedger = sqliteTable(
  "house_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    amountCents: integer("amount_cents").notNull(),
    type: text("type", { enum: ["unclaimed_prize", "forfeited_prize"] }).notNull(),
    tournamentId: integer("tournament_id").references(() => tournaments.id),
    /** Unique per event (unclaimed:{tournament}:{place}, forfeit:{tournament}:{user}), so a repeated settlement records nothing twice. */
    reference: text("reference").notNull().unique(),
    description: text("description").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [check("house_ledger_amount_positive", sql`${t.amountCents} > 0`)],
);

/**
 * One row per applied chunk of a tournament's settlement, written in the same D1 batch as the
 * chunk: a chunk applies exactly once (a second insert of its key aborts its batch), and a
 * settlement that failed part way resumes at the first chunk without a row
 * (docs/decisions/012-chunked-settlement.md).
 */
export const settlementChunks = sqliteTable(
  "settlement_chunks",
  {
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    chunk: integer("chunk").notNull(),
    appliedAt: integer("applied_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.chunk] })],
);

/**
 * Where operators have been seen: the keyed hashes (as on tournament_participants) of the device
 * cookie and network address of each signed-in operator request, with when each was last seen.
 * A prize join from a device or network an operator used recently is refused (docs/fair-play.md,
 * "Staff out of prize play"). Written only while the account is an operator.
 */
export const staffFingerprints = sqliteTable(
  "staff_fingerprints",
  {
    kind: text("kind", { enum: ["device", "network"] }).notNull(),
    hash: text("hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seenAt: integer("seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.hash, t.userId] })],
);

export const payouts = sqliteTable(
  "payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    method: text("method").notNull().default("bank_account"),
    accountHolderName: text("account_holder_name").notNull(),
    accountLast4: text("account_last4").notNull(),
    /** The full account number sealed with DATA_ENCRYPTION_KEYS (worker/crypto/sealed.ts); null for payouts from before it was kept. */
    accountNumberSealed: text("account_number_sealed"),
    /** Keyed hash of routing and account number (bankAccountHash), made before sealing: what a self-excluded account's deletion keeps. */
    bankHash: text("bank_hash"),
    /** The ACH file this payout was exported in; null until exported. */
    batchId: integer("batch_id"),
    /** Payouts above the two-person threshold wait for a second operator before they can be exported. */
    approvedBy: integer("approved_by"),
    approvedAt: integer("approved_at"),
    routingNumber: text("routing_number").notNull(),
    accountType: text("account_type", { enum: ["checking", "savings"] }).notNull(),
    status: text("status", { enum: ["pending", "paid", "failed"] })
      .notNull()
      .default("pending"),
    failureReason: text("failure_reason"),
    /**
     * The withdrawal this payout is the bank part of (its card refunds' ledger references end in
     * the same group: cardrefund:{pi}:{group}); null for payouts from before closed-loop refunds.
     */
    withdrawalGroup: text("withdrawal_group"),
    createdAt: integer("created_at").notNull().default(now),
    processedAt: integer("processed_at"),
  },
  (t) => [index("payouts_status_idx").on(t.status, t.createdAt), index("payouts_user_idx").on(t.userId)],
);

/**
 * Card refunds and disputes the payment provider reported, one row per provider event id so a
 * repeated webhook changes nothing; what the balance could not cover is owed.
 */
export const paymentReversals = sqliteTable(
  "payment_reversals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["refund", "dispute_opened", "dispute_won", "dispute_lost"] }).notNull(),
    /** The provider's charge, refund or dispute id (ch_…, re_…, dp_…). */
    objectId: text("object_id").notNull(),
    paymentIntentId: text("payment_intent_id"),
    amountCents: integer("amount_cents").notNull(),
    /** Taken from (or, for a won dispute, returned to) the balance through the ledger. */
    balanceCents: integer("balance_cents").notNull(),
    /** The part the balance could not cover. */
    owedCents: integer("owed_cents").notNull().default(0),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("payment_reversals_user_idx").on(t.userId)],
);

/**
 * Refunds and disputes the provider reported for a payment not credited yet (the webhook raced
 * the credit), keyed by the PaymentIntent: applied when the deposit is credited
 * (payments/reversals.ts, applyEarlyReversals), and they make /api/deposit/confirm refuse it.
 */
export const earlyReversals = sqliteTable(
  "early_reversals",
  {
    eventId: text("event_id").primaryKey(),
    paymentIntentId: text("payment_intent_id").notNull(),
    kind: text("kind", { enum: ["refund", "dispute_opened", "dispute_won", "dispute_lost"] }).notNull(),
    objectId: text("object_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("early_reversals_intent_idx").on(t.paymentIntentId)],
);

/** ACH (NACHA) files of PPD credits an operator exported, then marked paid once the bank confirmed them. */
export const payoutBatches = sqliteTable("payout_batches", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  fileName: text("file_name").notNull(),
  entryCount: integer("entry_count").notNull(),
  totalCents: integer("total_cents").notNull(),
  status: text("status", { enum: ["exported", "paid"] })
    .notNull()
    .default("exported"),
  createdBy: integer("created_by").notNull(),
  createdAt: integer("created_at").notNull().default(now),
  paidBy: integer("paid_by"),
  paidAt: integer("paid_at"),
  /**
   * The file exactly as exported (it holds full account numbers, so sealed with
   * DATA_ENCRYPTION_KEYS): a re-download answers these bytes, whatever became of its payouts or the
   * ACH_* variables since. Null for batches exported before it was kept (rebuilt on download).
   */
  fileSealed: text("file_sealed"),
});

/**
 * Every operator action: who, what, on what, the state before and after. Append only (triggers
 * in migrations/0007 refuse updates and deletes).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorUserId: integer("actor_user_id").notNull(),
    /** What was done, e.g. tournament.cancel, payout.mark_paid, user.suspend (common/api/console.ts). */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** JSON of the target before and after the action; null where there was none. */
    before: text("before"),
    after: text("after"),
    note: text("note"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("audit_log_time_idx").on(t.createdAt),
    index("audit_log_target_idx").on(t.targetType, t.targetId),
    index("audit_log_actor_idx").on(t.actorUserId),
  ],
);

export const approvalKinds = APPROVAL_KINDS;

/**
 * The two-person rule: an action above its threshold is stored here with everything needed to
 * carry it out, and happens only when a second operator (never the requester) approves it.
 */
export const approvals = sqliteTable(
  "approvals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: approvalKinds }).notNull(),
    /** JSON: the validated request to carry out on approval. */
    payload: text("payload").notNull(),
    /** One line for the approver: what will happen. */
    summary: text("summary").notNull(),
    amountCents: integer("amount_cents").notNull(),
    requestedBy: integer("requested_by").notNull(),
    requestedAt: integer("requested_at").notNull().default(now),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    decidedBy: integer("decided_by"),
    decidedAt: integer("decided_at"),
    note: text("note"),
    /** What the approved action created or changed (a tournament id, a ledger reference, a payout id). */
    resultRef: text("result_ref"),
    /** The player account the action pays (a payout's, an adjustment's, a released prize's); that operator may not approve it. */
    beneficiaryId: integer("beneficiary_id"),
    /** What the action is about (payout:{id}, user:{id}, held_prize:{id}, tournament:{id}, house_pool:{hash of the request}); null for rows from before. */
    target: text("target"),
  },
  (t) => [
    index("approvals_status_idx").on(t.status, t.requestedAt),
    // One pending request per kind, target and amount: a second click finds the first (worker/admin/approvals.ts).
    uniqueIndex("approvals_pending_unique")
      .on(t.kind, t.target, t.amountCents)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The two-person rule's rolling totals (common/domain/two-person.ts): one row per money action an
 * operator let through on their own (a payout exported or paid by hand, a held prize released, a
 * house-funded pool created or raised), written in the action's own D1 batch together with a guard
 * that aborts the batch when the operator's or the payee's total over the last 24 h would pass the
 * threshold. Actions a second operator approved write no row.
 */
export const twoPersonTally = sqliteTable(
  "two_person_tally",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Which threshold the row counts against: TWO_PERSON_PAYOUT_USD (payouts, released prizes) or TWO_PERSON_HOUSE_POOL_USD. */
    bucket: text("bucket", { enum: ["payout", "house_pool"] }).notNull(),
    kind: text("kind", { enum: ["payout", "held_prize", "house_pool"] }).notNull(),
    operatorId: integer("operator_id").notNull(),
    /** The player the money went to; null for a house pool. */
    payeeId: integer("payee_id"),
    amountCents: integer("amount_cents").notNull(),
    /** One row per thing (payout:{id}, held_prize:{id}, house_pool:{uuid}), so settling it again counts nothing twice. */
    reference: text("reference").notNull().unique(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("two_person_tally_operator_idx").on(t.bucket, t.operatorId, t.createdAt),
    index("two_person_tally_payee_idx").on(t.bucket, t.payeeId, t.createdAt),
  ],
);

export const sandboxIntentStatuses = ["requires_payment_method", "succeeded", "canceled"] as const;

/**
 * PaymentIntents of the built-in sandbox provider (used when no Stripe key is set), shaped like
 * Stripe's so the deposit code cannot tell them apart. Never holds card data.
 */
export const sandboxPaymentIntents = sqliteTable(
  "sandbox_payment_intents",
  {
    id: text("id").primaryKey(),
    clientSecret: text("client_secret").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: sandboxIntentStatuses }).notNull().default("requires_payment_method"),
    /** Same role as Stripe's Idempotency-Key: a repeated create returns the first intent. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    lastError: text("last_error"),
    /** Set when the deposit was refunded to the card (refundIntent), with our reason; Stripe keeps such an intent "succeeded" too. */
    refundedAt: integer("refunded_at"),
    refundReason: text("refund_reason"),
    /** What partial refunds (closed-loop withdrawals, sandbox_refunds) sent back so far. */
    refundedCents: integer("refunded_cents").notNull().default(0),
    /** The last 4 digits of the test card that paid it (never more of the card). */
    cardLast4: text("card_last4"),
    /** The sandbox's stand-in for Stripe's card fingerprint (sandboxCardFingerprint), set when the card is confirmed; never the number. */
    cardFingerprint: text("card_fingerprint"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [check("sandbox_intents_amount_positive", sql`${t.amountCents} > 0`)],
);

/** Partial refunds the sandbox made, one per idempotency key (Stripe's Refund objects, re_sbx_…). */
export const sandboxRefunds = sqliteTable(
  "sandbox_refunds",
  {
    id: text("id").primaryKey(),
    intentId: text("intent_id")
      .notNull()
      .references(() => sandboxPaymentIntents.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    reason: text("reason"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("sandbox_refunds_intent_idx").on(t.intentId), check("sandbox_refunds_amount_positive", sql`${t.amountCents} > 0`)],
);

export const depositIntentStatuses = ["open", "credited", "refunded", "cancelled"] as const;

/**
 * Every checkout (PaymentIntent) this app created, whatever the provider, written when it is
 * created: open ones count against the deposit limits (docs/responsible-play.md), a cancelled one
 * is refunded rather than credited if it is paid after all, and a refund owed to the card is
 * tracked until the provider has made it (refunded_at).
 */
export const depositIntents = sqliteTable(
  "deposit_intents",
  {
    /** pi_…: the provider's id, also the deposit's ledger reference. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: depositIntentStatuses }).notNull().default("open"),
    /** The refusal code when the payment was refused at credit (status refunded). */
    refundReason: text("refund_reason"),
    /** When the provider confirmed the refund to the card; null while it is still owed. */
    refundedAt: integer("refunded_at"),
    /** The provider's fingerprint of the card that paid (the same card gives the same one), when it reports one; set at the credit. */
    cardFingerprint: text("card_fingerprint"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("deposit_intents_user_idx").on(t.userId, t.status, t.createdAt)],
);

export const excludedIdentityKinds = ["email", "card", "bank_account"] as const;

/**
 * What is kept of a deleted account that was self-excluded (docs/responsible-play.md, "Deleting
 * an account"): keyed hashes (worker/responsible-play/excluded-identities.ts) of its normalised
 * email, the fingerprints of its cards and its payout bank accounts, each with the exclusion's
 * end (null: permanent). Nothing here names the person; a new account matching a row takes the
 * exclusion over until that end.
 */
export const excludedIdentities = sqliteTable(
  "excluded_identities",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: excludedIdentityKinds }).notNull(),
    hash: text("hash").notNull(),
    endsAt: integer("ends_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("excluded_identities_hash_idx").on(t.kind, t.hash)],
);

export const cheatAttempts = sqliteTable(
  "cheat_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    reason: text("reason").notNull(),
    timestamp: integer("timestamp").notNull().default(now),
    reviewed: integer("reviewed", { mode: "boolean" }).notNull().default(false),
    resolution: text("resolution"),
    /**
     * Refused answers after this one that were counted here instead of stored: a player's rows in
     * a tournament stop at CHEAT_ATTEMPTS_STORED_MAX, and the last one counts the rest.
     */
    suppressed: integer("suppressed").notNull().default(0),
  },
  // Tournament first: the console lists a tournament's attempts; each refusal counts a player's.
  (t) => [index("cheat_attempts_tournament_user_idx").on(t.tournamentId, t.userId)],
);

export const questionFeedback = sqliteTable("question_feedback", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  questionId: integer("question_id")
    .notNull()
    .references(() => questions.id),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  feedbackType: text("feedback_type").notNull(),
  rating: integer("rating"),
  comment: text("comment"),
  resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
  /** Where the player met the question. */
  tournamentId: integer("tournament_id"),
  /** fixed, retired or dismissed, by the operator who resolved it (the reporter is notified). */
  resolution: text("resolution"),
  resolvedBy: integer("resolved_by"),
  resolvedAt: integer("resolved_at"),
  createdAt: integer("created_at").notNull().default(now),
});

/** Delivered notifications, so the bar can count real unread ones. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    action: text("action"),
    tournamentId: integer("tournament_id"),
    status: text("status"),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.read)],
);

/**
 * W-9s players filed (docs/identity-and-tax.md, "Tax"): append-only, one row per filing; the
 * newest (highest id) of a player is the one in force, older rows stay for the records. The TIN
 * is sealed with DATA_ENCRYPTION_KEYS, bound to its player (taxFormSealContext), and opened only
 * for the operators' 1099-MISC export; nothing else reads more than its last 4 digits.
 */
export const taxForms = sqliteTable(
  "tax_forms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    legalName: text("legal_name").notNull(),
    businessName: text("business_name"),
    /** The W-9's federal tax classification (common/domain/tax.ts, TAX_CLASSIFICATIONS). */
    taxClassification: text("tax_classification").notNull(),
    tinType: text("tin_type", { enum: ["ssn", "ein"] }).notNull(),
    tinSealed: text("tin_sealed").notNull(),
    tinLast4: text("tin_last4").notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    /** The name the player typed as signature under the certification, and when. */
    signatureName: text("signature_name").notNull(),
    certifiedAt: integer("certified_at").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("tax_forms_user_idx").on(t.userId, t.id)],
);

/**
 * "Remind me" on a featured event: one row per player and tournament. Each reminder's sent
 * marker is written in the same batch as its notification, so a cron run that is retried or
 * overlaps another never sends it twice.
 */
export const tournamentReminders = sqliteTable(
  "tournament_reminders",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tournamentId: integer("tournament_id")
      .notNull()
      .references(() => tournaments.id),
    createdAt: integer("created_at").notNull().default(now),
    /** The day-before reminder went out (or was withheld: opted out, on a break…); null until then. */
    daySentAt: integer("day_sent_at"),
    /** The 10-minute reminder, likewise. */
    soonSentAt: integer("soon_sent_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tournamentId] }), index("tournament_reminders_tournament_idx").on(t.tournamentId)],
);

/**
 * Which version of each legal document (common/legal/documents.ts) a player accepted, and when:
 * one row per document and version, so a new version is a new row and the old ones stay as the
 * record of what was agreed before. Erased with the account (docs/player-data.md).
 */
export const termsAcceptances = sqliteTable(
  "terms_acceptances",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    document: text("document", { enum: LEGAL_DOCUMENT_IDS }).notNull(),
    version: text("version").notNull(),
    acceptedAt: integer("accepted_at").notNull(),
    /** Keyed hash of the network address the acceptance came from (as on tournament_participants); null when unknown. */
    networkHash: text("network_hash"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.document, t.version] })],
);

export const identityStatuses = ["pending", "verified", "requires_input", "refused"] as const;

/**
 * A player's identity verification (docs/identity-and-tax.md): one row per player, the latest
 * attempt; no row means not started. What the provider verified is kept (legal name, date of
 * birth, the document's issuing country and type); never a document image, never the document
 * number itself: only its keyed hash (worker/identity/hash.ts).
 */
export const identityVerifications = sqliteTable(
  "identity_verifications",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    /** The provider's verification session (vs_…): the reference operators see. */
    sessionId: text("session_id").notNull(),
    status: text("status", { enum: identityStatuses }).notNull(),
    /** The provider's reason for needs-another-try or refused, in its words. */
    reason: text("reason"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    /** ISO date; copied to users.date_of_birth, which every age rule reads. */
    dateOfBirth: text("date_of_birth"),
    documentCountry: text("document_country"),
    documentType: text("document_type"),
    identityHash: text("identity_hash"),
    /** How many times this player was verified: the first covers withdrawals up to IDENTITY_REVERIFY_LIFETIME_USD. */
    verifiedCount: integer("verified_count").notNull().default(0),
    verifiedAt: integer("verified_at"),
    /** An operator asked for a new verification (audited): the player needs one before the next bank withdrawal. */
    reverifyRequestedAt: integer("reverify_requested_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  // The webhook finds a verification by its session; linked accounts are found by the hash.
  (t) => [
    uniqueIndex("identity_verifications_session_unique").on(t.sessionId),
    index("identity_verifications_hash_idx").on(t.identityHash),
  ],
);

/** Which account a person's identity (its keyed hash) belongs to: the first to verify it. */
export const identityOwners = sqliteTable("identity_owners", {
  hash: text("hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: integer("created_at").notNull().default(now),
});

/** Provider events already applied to a verification (Stripe's evt_… ids): a repeated webhook changes nothing. */
export const identityEvents = sqliteTable("identity_events", {
  eventId: text("event_id").primaryKey(),
  sessionId: text("session_id").notNull(),
  type: text("type").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/** Bank withdrawals refused because the holder name is not the verified legal name: operators see them. */
export const identityNameMismatches = sqliteTable(
  "identity_name_mismatches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    holderName: text("holder_name").notNull(),
    legalName: text("legal_name").notNull(),
    amountCents: integer("amount_cents").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("identity_name_mismatches_user_idx").on(t.userId, t.createdAt)],
);
