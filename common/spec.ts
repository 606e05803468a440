// Every constant of the product and its design, in one place, for the Worker and the web app.

export const PLATFORM_FEE_SHARE = 0.15;
/** Prize shares of places 1-3, in basis points of the pool (65/25/10). */
export const PRIZE_SHARES_BPS = [6500, 2500, 1000] as const;
export const MIN_PLAYERS_PAID = 10;
/** A paid tournament still under the minimum this long after its start is cancelled. */
export const CANCEL_AFTER_DELAY_MS = 30 * 60 * 1000;
/**
 * Staff out of prize play (docs/fair-play.md): a device (its cookie) an operator was signed in on
 * links the accounts that use it for this long after the operator was last seen on it; a network
 * address, which others share and which changes hands, for a shorter time.
 */
export const STAFF_DEVICE_LINK_MS = 90 * 24 * 60 * 60 * 1000;
export const STAFF_NETWORK_LINK_MS = 30 * 24 * 60 * 60 * 1000;
/** An operator's fingerprint is written again at most this often (its seen_at moves on). */
export const STAFF_SEEN_REFRESH_MS = 10 * 60 * 1000;

export const QUESTIONS_PER_TOURNAMENT = 10;
export const OPTIONS_PER_QUESTION = 4;
/** Difficulty of each question slot: easy Q1-3, medium Q4-7, hard Q8-10. */
export const DIFFICULTY_RAMP = [1, 1, 1, 2, 2, 2, 2, 3, 3, 3] as const;
export const QUESTION_TIME_MS = 30_000;
/** Network allowance on top of the 30 s before an answer counts as late. */
export const ANSWER_GRACE_MS = 2_000;
export const PAUSE_AFTER_ANSWER_MS = 2_000;
/** The question supply on the console (docs/questions.md): burned questions are counted over this many days. */
export const SUPPLY_BURN_WINDOW_DAYS = 7;
/** The console warns when a category's fresh questions last fewer days of the schedule than this. */
export const SUPPLY_WARN_DAYS = 7;
/** Length bounds of an imported question's text. */
export const QUESTION_TEXT_MIN = 10;
export const QUESTION_TEXT_MAX = 500;
/** Answers a question needs before its correct rate may suggest another difficulty (docs/questions.md). */
export const CALIBRATION_MIN_ANSWERS = 20;
/** A correct rate at or above this reads as easy (1); below CALIBRATION_HARD_BELOW as hard (3); medium (2) between. */
export const CALIBRATION_EASY_FROM = 0.7;
export const CALIBRATION_HARD_BELOW = 0.4;
/** A player's note on a question report. */
export const QUESTION_REPORT_NOTE_MAX = 500;
/** Question reports one player may send per hour. */
export const QUESTION_REPORTS_PER_HOUR = 20;
/**
 * Cheat-attempt rows stored per player per tournament; refusals past it are counted on the last
 * stored row instead, so a player cannot grow the table without limit (docs/fair-play.md).
 */
export const CHEAT_ATTEMPTS_STORED_MAX = 50;
/** Candidates per slot of a self-paced prize tournament's pool, widest first: each player draws one per slot. */
export const QUESTION_DRAW_WIDTHS = [3, 2] as const;

/** How a tournament is played: each player at their own pace, or everyone on one shared clock. */
export const TOURNAMENT_FORMATS = ["self_paced", "live_show"] as const;
/** Live show: the pause between a question's reveal and the next question. */
export const REVEAL_PAUSE_MS = 5_000;
/** Live show: the most a player's measured round trip may take off their response time (docs/decisions/008-live-show-timing.md). */
export const LATENCY_ALLOWANCE_MAX_MS = 150;
/** Round-trip samples kept per socket; the allowance uses their median. */
export const RTT_SAMPLES = 5;

/** Sockets one user may hold on one tournament; opening another closes their oldest with SOCKET_REPLACED_CLOSE_CODE. */
export const SOCKETS_PER_USER_PER_ROOM = 3;
/** /ws (notification hub) sockets one user may hold, one per tab; opening another closes their oldest with SOCKET_REPLACED_CLOSE_CODE. */
export const HUB_SOCKETS_PER_USER = 5;
/** A play frame with no reply this long (a half-open connection) is given up and sent over HTTP instead. */
export const SOCKET_REPLY_TIMEOUT_MS = 8_000;
/** The close code of a tournament socket replaced by the same user's newer one: the client does not reconnect. */
export const SOCKET_REPLACED_CLOSE_CODE = 4001;
/** The close code of every socket of a user whose session ended (logout, password change, account deletion): the client re-checks its session. */
export const SESSION_ENDED_CLOSE_CODE = 4003;
/** Frames per socket: a burst of this many, refilled at SOCKET_FRAMES_PER_SECOND. */
export const SOCKET_FRAME_BURST = 20;
export const SOCKET_FRAMES_PER_SECOND = 10;

/** Under the minimum at its start time, a paid tournament re-checks this often until it starts or is cancelled. */
export const START_RECHECK_MS = 60_000;
/** Leaderboard pushes on a tournament socket are coalesced to at most one per interval... */
export const LEADERBOARD_PUSH_MS = 500;
/**
 * ...longer by one interval for every this many sockets: a push is a send to every socket (about
 * 0.25 ms each locally), so this keeps pushes near a tenth of the room's CPU. At 5,000 sockets a
 * push every 500 ms took all of it.
 */
export const LEADERBOARD_PUSH_SOCKETS_PER_INTERVAL = 200;
/** Rows in a pushed leaderboard frame (each socket also gets its own rank). */
export const LEADERBOARD_PUSH_SIZE = 10;
/** Entry fee from which a tournament counts as premium (the price=premium filter). */
export const PREMIUM_MIN_FEE_CENTS = 2000;
export const GLOBAL_LEADERBOARD_SIZE = 50;
/** Largest request body the API reads: room for an avatar (at most ~200 KB as a data URL) and its JSON. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;
/** Largest webhook body accepted: Stripe's events are a few KB. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;
/** "This week" on the leaderboards: prizes won in the last seven days. */
export const LEADERBOARD_WEEK_MS = 7 * 24 * 60 * 60 * 1000;
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Tournaments in one page of the list when the request does not say, and the most it may ask for. */
export const TOURNAMENT_PAGE_SIZE = 24;
export const TOURNAMENT_PAGE_SIZE_MAX = 100;
/** The cron keeps at least this many upcoming paid tournaments per category. */
export const SCHEDULE_MIN_UPCOMING = 2;
/** Scheduled starts sit on a grid this wide per category (a new tournament every 2-4 hours). */
export const SCHEDULE_SPACING_MS = 3 * 60 * 60 * 1000;
/** A scheduled tournament is created at least this long before it starts, so players can join. */
export const SCHEDULE_LEAD_MS = 30 * 60 * 1000;
/** Categories are staggered on the grid by this step so they do not all start together. */
export const SCHEDULE_STAGGER_MS = 30 * 60 * 1000;

export const CORRECT_ANSWER_POINTS = 100;
export const MAX_SPEED_BONUS = 1000;

export const XP_PER_LEVEL = 1000;
export const XP_PER_CORRECT = 10;
export const PLACEMENT_XP = { first: 500, second: 350, third: 250, topTen: 100, participation: 50 } as const;

export const TOURNAMENT_DURATION_MS = 20 * 60 * 1000;

/**
 * The fee tiers of scheduled tournaments; `label` is how every page names one ("Advanced
 * tournaments"), always with its fee and minimum level, since a fee tier's name is not the level
 * tier of the same name (common/domain/levels.ts: level tiers are named with their levels).
 */
export const FEE_TIERS = [
  { name: "standard", label: "Standard", entryFeeCents: 500, minLevel: 1, maxParticipants: 50 },
  { name: "advanced", label: "Advanced", entryFeeCents: 1000, minLevel: 3, maxParticipants: 50 },
  { name: "premium", label: "Premium", entryFeeCents: 2000, minLevel: 5, maxParticipants: 30 },
  { name: "elite", label: "Elite", entryFeeCents: 5000, minLevel: 10, maxParticipants: 30 },
] as const;

export const MIN_DEPOSIT_CENTS = 50;
/** The smallest withdrawal: a bank transfer of less is not worth its cost. */
export const MIN_WITHDRAWAL_CENTS = 100;
export const DEFAULT_MAX_DEPOSIT_CENTS = 100_000;
/** How long a card deposit stays unwithdrawable unless spent on entry fees (refunds and disputes arrive late); DEPOSIT_HOLD_HOURS overrides. */
export const DEFAULT_DEPOSIT_HOLD_HOURS = 72;
/**
 * Closed loop: a withdrawal first refunds card deposits of the last CARD_REFUND_WINDOW_DAYS to the
 * card (the chargeback window: after it a refund to the card is no longer the safe way back).
 */
export const CARD_REFUND_WINDOW_DAYS = 120;
export const CARD_REFUND_WINDOW_MS = CARD_REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** Sanity ceiling on any single money amount, far above every real limit, so cents stay exact integers. */
export const MAX_AMOUNT_CENTS = 100_000_000_00;
export const DEPOSIT_CURRENCY = "usd";
export const WITHDRAWAL_METHODS = ["bank_account"] as const;
export const BANK_ACCOUNT_TYPES = ["checking", "savings"] as const;
export const ACCOUNT_HOLDER_NAME_MIN = 2;
export const ACCOUNT_HOLDER_NAME_MAX = 100;
export const RECOVERY_CODE_COUNT = 10;
/** The word a player types to confirm deleting their account. */
export const DELETE_ACCOUNT_CONFIRMATION = "DELETE";

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
/** The longest address SMTP can deliver to (RFC 5321). */
export const EMAIL_MAX = 254;
/** A step-up (password, and a code with 2FA on, re-entered in this session) covers sensitive actions for this long. */
export const STEP_UP_TTL_MS = 10 * 60_000;
/** Every state-changing operator request (/api/admin, not GET) needs a step-up this recent (docs/operating.md). */
export const OPERATOR_STEP_UP_TTL_MS = 15 * 60_000;
/** An operator's session ends this long after it began, whatever happens (players': 30 days). */
export const OPERATOR_SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** An operator's session ends after this long without a request (players': 7 days). */
export const OPERATOR_SESSION_IDLE_MS = 30 * 60_000;
/**
 * Failed sign-ins per account and address: the first LOGIN_FREE_FAILURES cost nothing, then each
 * failure makes the next attempt wait, from LOGIN_FIRST_DELAY_MS doubling up to LOGIN_MAX_DELAY_MS.
 */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_FIRST_DELAY_MS = 1_000;
export const LOGIN_MAX_DELAY_MS = 15 * 60_000;
/** A run of failures older than this is forgotten: the count starts again. */
export const LOGIN_FAILURES_FORGET_MS = 24 * 60 * 60_000;
/**
 * Wrong passwords for one account from every address together (docs/decisions/002): past this
 * many in a run, a sign-in to the account needs the bot check (Turnstile); without the bot check
 * configured, each further failure makes the whole account wait, from 2 x LOGIN_FIRST_DELAY_MS
 * doubling up to LOGIN_MAX_DELAY_MS. A password reset ends the run.
 */
export const LOGIN_ACCOUNT_FREE_FAILURES = 20;
/** Wrong second-factor codes (TOTP or recovery, at sign-in and step-up) one account may take in a run before codes are refused. */
export const TWO_FACTOR_MAX_FAILURES = 10;
/** A run of wrong codes is forgotten after this long without one... */
export const TWO_FACTOR_FAILURES_FORGET_MS = 60 * 60_000;
/** ...and once over the budget, codes are refused for this long after the last wrong one. */
export const TWO_FACTOR_LOCK_MS = 60 * 60_000;
/** Email address changes (each may answer "already registered") per user per hour. */
export const EMAIL_CHANGES_PER_HOUR = 5;
export const PASSWORD_MIN_LOGIN = 6;
export const PASSWORD_MIN_CHANGE = 8;

export const COUNTDOWN_REFRESH_MS = 10_000;
export const POST_JOIN_REDIRECT_MS = 1_000;
export const LEADERBOARD_POLL_MS = 5_000;
export const LEADERBOARD_PANEL_SIZE = 5;
/**
 * A closed socket comes back after a random wait (full jitter) below a ceiling that starts here
 * and doubles with each failed attempt: a deploy closes every socket at once, and the clients
 * must not all come back in the same millisecond (common/domain/reconnect.ts).
 */
export const WS_RECONNECT_MS = 3_000;
/** The ceiling stops doubling here: short enough that a live-show player misses at most part of a question. */
export const WS_RECONNECT_MAX_MS = 10_000;
/** Failed attempts in a row before an ordinary socket gives up; a live show's play screen keeps trying until the show is over. */
export const WS_MAX_RECONNECTS = 5;
export const WS_AUTH_DELAY_MS = 100;
export const NOTIFICATION_DISMISS_MS = 10_000;
export const NOTIFICATION_GAP_MS = 300;

/**
 * The spec's marketing claims for the home page's hero, and the real figures at which each becomes
 * true: until then the hero shows the real figure (common/domain/hero-figures.ts).
 */
export const MARKETING = { paidToWinners: "$1.2M+", tournamentsCompleted: "35,000+" } as const;
export const MARKETING_REACHED_AT = { paidToWinnersCents: 120_000_000, tournamentsCompleted: 35_000 } as const;
/** How long the hero's real figures (GET /api/stats) may be served from the cache. */
export const HERO_FIGURES_CACHE_SECONDS = 60;

/** Practice entries carry this word in their title; operators may not use it for their own tournaments. */
export const PRACTICE_MARKER = "Practice";
/** A practice run nobody finishes is closed this long after it started (unanswered questions time out). */
export const PRACTICE_RUN_DURATION_MS = 30 * 60 * 1000;

// Web app display choices.
/** Tournaments shown on the home page. */
export const HOME_TOURNAMENTS = 3;
/** Upcoming tournaments shown on the dashboard. */
export const DASHBOARD_UPCOMING_LIMIT = 3;
/** Rows of the home page's top players table. */
export const HOME_TOP_PLAYERS = 5;
/** Question timer: the progress colour changes at 20 s left and turns to the warning style at 10 s. */
export const TIMER_CAUTION_MS = 20_000;
export const TIMER_WARNING_MS = 10_000;
/** How often the question timer redraws. */
export const TIMER_TICK_MS = 250;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** The tournament search box asks the server once typing pauses this long. */
export const SEARCH_DEBOUNCE_MS = 300;

// Account mail (verification links, password reset, security notices).
/** How long an email verification link works. */
export const EMAIL_VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a password reset link works; a newer request voids the older links at once. */
export const PASSWORD_RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Random bytes in a mailed link's token (256 bits). */
export const EMAIL_TOKEN_BYTES = 32;
/** Verification mails a player may ask for again per hour. */
export const VERIFY_RESEND_PER_HOUR = 5;
/** Password reset requests per hour from one network address, and for one email address. */
export const FORGOT_PASSWORD_PER_IP_PER_HOUR = 10;
export const FORGOT_PASSWORD_PER_EMAIL_PER_HOUR = 3;
/** A mail provider that has not answered by then is given up on (the action stands, the failure is logged). */
export const EMAIL_SEND_TIMEOUT_MS = 10_000;
/** Mails the local outbox page lists, newest first. */
export const OUTBOX_PAGE_SIZE = 100;
// Responsible play (docs/responsible-play.md).
/** The rolling windows of the limits: the last 24 hours, 7 days and 30 days before the moment of the check. */
export const LIMIT_WINDOWS_MS = { daily: 24 * 60 * 60 * 1000, weekly: 7 * 24 * 60 * 60 * 1000, monthly: 30 * 24 * 60 * 60 * 1000 } as const;
/** A raised or removed limit waits this long before it applies; a lowered one applies at once. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000;
/** Cool-off lengths a player may choose. */
export const COOL_OFF_PERIODS_MS = { "24h": 24 * 60 * 60 * 1000, "7d": 7 * 24 * 60 * 60 * 1000, "30d": 30 * 24 * 60 * 60 * 1000 } as const;
/** Self-exclusion lengths, in calendar months; null: permanent. */
export const SELF_EXCLUSION_PERIOD_MONTHS = { "6m": 6, "1y": 12, permanent: null } as const;
/** The age to deposit or pay an entry fee where REGION_MIN_AGES names no higher one. */
export const DEFAULT_MIN_AGE = 18;
/** The earliest date of birth accepted: anything before is a typing slip. */
export const DATE_OF_BIRTH_MIN = "1900-01-01";
/** The cookie that sets the request's region on a loopback host only (local testing); production ignores it. */
export const DEV_REGION_COOKIE = "dev-region";
/** The request header that makes a money request safe to retry (docs/payments.md), and what a key may be. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
/** A key answers its retries this long; after that the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A key claimed this long ago whose request moved no money is taken as abandoned (its process died) and may be claimed again. */
export const IDEMPOTENCY_CLAIM_STALE_MS = 30_000;

// The operator console's two-person rule (docs/operating.md); each can be changed in wrangler.toml.
/** Payouts above this wait for a second operator's approval before they can be exported (TWO_PERSON_PAYOUT_USD). */
export const DEFAULT_TWO_PERSON_PAYOUT_CENTS = 100_000;
/** House-funded prize pools above this wait for a second operator's approval (TWO_PERSON_HOUSE_POOL_USD). */
export const DEFAULT_TWO_PERSON_HOUSE_POOL_CENTS = 50_000;
/**
 * The thresholds hold for rolling totals, not single items: what one operator let through on their
 * own, and what one payee received that way, over this window (common/domain/two-person.ts).
 */
export const TWO_PERSON_WINDOW_MS = 24 * 60 * 60 * 1000;

// Payouts and the ACH file (docs/operating.md).
/** Payouts one ACH file may carry (one selection of the queue). */
export const PAYOUT_EXPORT_MAX = 500;
/** Payouts the queue lists at once, oldest pending first. */
export const PAYOUT_QUEUE_LIMIT = 500;
/** Batches (ACH files) the batches list shows, newest first. */
export const PAYOUT_BATCH_LIST_LIMIT = 100;
/** How an account number is shown: this, then its last 4 digits. */
export const ACCOUNT_MASK = "••••";

// Featured events (docs/featured-events.md).
/** A featured event is announced at least this long before its start ("special events announced a week ahead"). */
export const FEATURED_MIN_NOTICE_MS = 7 * 24 * 60 * 60 * 1000;
/** How far ahead home and the tournaments page list featured events. */
export const FEATURED_LIST_HORIZON_MS = 28 * 24 * 60 * 60 * 1000;
/** Registration for everyone opens this long before the start unless the operator sets another time. */
export const FEATURED_REGISTRATION_LEAD_MS = 72 * 60 * 60 * 1000;
/** Advanced players (level 6+) may register this much earlier than everyone else. */
export const PRIORITY_ACCESS_LEAD_MS = 24 * 60 * 60 * 1000;
/** "Remind me": the day-before reminder goes out once the start is this close. */
export const REMINDER_DAY_LEAD_MS = 24 * 60 * 60 * 1000;
/**
 * The last reminder goes out once the start is this close: 10 minutes plus 30 s, so a cron that
 * runs every 5 minutes always has at least one run inside the window.
 */
export const REMINDER_SOON_LEAD_MS = 10 * 60 * 1000 + 30 * 1000;
// ---- Custom tournaments (docs/custom-tournaments.md) ----
/** The level that may create private custom tournaments: Elite. */
export const CUSTOM_TOURNAMENT_MIN_LEVEL = 10;
/** Seats a custom tournament may have; a paid one needs room for MIN_PLAYERS_PAID as well. */
export const CUSTOM_SEATS_MIN = 2;
export const CUSTOM_SEATS_MAX = 100;
/** Entry fees a custom tournament may ask: free, or one of the spec's fee tiers (cents). */
export const CUSTOM_ENTRY_FEES_CENTS = [0, ...FEE_TIERS.map((t) => t.entryFeeCents)] as const;
/** Earliest start after creation, so invitees have time to join; latest, so it does not hold questions for long. */
export const CUSTOM_START_MIN_LEAD_MS = 10 * 60_000;
export const CUSTOM_START_MAX_AHEAD_MS = 14 * 24 * 60 * 60_000;
/** Custom tournaments one player may have upcoming at once (each holds ten or more questions). */
export const CUSTOM_OPEN_MAX = 5;
/** Bytes of randomness in an invite code (128 bits), written in base32. */
export const INVITE_CODE_BYTES = 16;
/** Its length in base32 without padding: ceil(128 / 5). */
export const INVITE_CODE_LENGTH = 26;
