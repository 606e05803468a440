// User-facing texts the product names, shared so the server and the client say the same thing.

export const VALIDATION = {
  usernameMin: "Username must be at least 3 characters.",
  usernameMax: "Username must be at most 30 characters.",
  emailMax: "Email must be at most 254 characters.",
  passwordMinLogin: "Password must be at least 6 characters.",
  passwordsDontMatch: "Passwords don't match",
  emailInvalid: "Please enter a valid email.",
  currentPasswordRequired: "Current password is required.",
  newPasswordMin: "New password must be at least 8 characters.",
  confirmPasswordRequired: "Please confirm your new password.",
  newPasswordsDontMatch: "Passwords don't match.",
  // Profile-page variants.
  profileUsernameMin: "Username must be at least 3 characters",
  profileEmailInvalid: "Invalid email address",
  profileCurrentPasswordRequired: "Current password is required",
  profilePasswordMin: "Password must be at least 8 characters long",
  profileConfirmRequired: "Please confirm your password",
  profilePasswordsMismatch: "Passwords do not match",
  amountRequired: "Amount is required",
  amountPositive: "Amount must be a positive number",
  amountAboveBalance: "Cannot withdraw more than your available balance",
  methodRequired: "Please select a withdrawal method",
} as const;

/** The Worker's answers for failures no route names more precisely. */
export const ERRORS = {
  payloadTooLarge: "This request is too large.",
  internal: "Internal server error",
  /** A write refused by a unique index that no route foresaw (two requests racing for one value). */
  conflict: "This already exists. Please refresh and try again.",
  insecureConfiguration:
    "This site is not configured safely yet: a secret still has its public example value from .dev.vars.example. The operator must set a real one.",
} as const;

/** What the web app shows when a request fails without a message of the server's own (by HTTP status). */
export const REQUEST_FAILED = {
  network: "Could not reach the server. Check your connection and try again.",
  unauthorized: "Please sign in to continue.",
  forbidden: "You don't have permission to do that.",
  notFound: "We couldn't find what you were looking for.",
  tooMany: "Too many attempts. Please wait a few minutes and try again.",
  server: "Something went wrong on our side. Please try again in a moment.",
  other: "Something went wrong. Please try again.",
} as const;

export const AUTH = {
  usernameTaken: "Username already exists",
  emailTaken: "Email already registered",
  invalidCredentials: "Invalid username or password",
  notAuthenticated: "Not authenticated",
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  currentPasswordWrong: "Current password is incorrect",
  twoFactorRequired: "Two-factor code required",
  twoFactorInvalid: "Invalid two-factor code",
  stepUpRequired: "Please confirm your password to continue.",
  stepUpTwoFactorRequired: "Enter the code from your authenticator app to confirm.",
  /** `wait` reads like "2 minutes" or "30 seconds". */
  loginLocked: (wait: string) => `Too many failed sign-ins to this account from your network. Please wait ${wait} before trying again.`,
  adminTwoFactorRequired:
    "Operator access needs two-factor authentication. Enable 2FA in your profile's security settings, then try again.",
  emailChangeLimited: "Too many email address changes. Please wait an hour and try again.",
  /** Without the bot check: too many wrong passwords for the account from everywhere. */
  accountLoginLocked: (wait: string) =>
    `Too many failed sign-ins to this account. Please wait ${wait} before trying again, or reset your password (Forgot password?) to sign in at once.`,
  loginBotCheckRequired: "Too many failed sign-ins to this account. Please complete the bot check and sign in again.",
  twoFactorLocked:
    "Too many wrong codes for this account. Codes are not accepted for up to an hour; the account's owner has been told by email.",
} as const;

export const PLAY = {
  notFound: "Tournament not found",
  /** A live show the host paused: the current question runs to its reveal, the next waits for the host. */
  pausedByHost: "Paused by the host",
  pausedByHostDetail: "The next question goes out when the host resumes the show. Everyone gets it at the same moment.",
  /** A sharded show's reveal before every play shard's counts are in (they replace these when they are). */
  answersStillCounting: "Still adding up everyone's answers: these figures will update.",
  /** A question the host voided: shown on its reveal (or the next screen after it). */
  questionVoided: "This question was voided by the host — it counts for nobody",
  disqualified: (reason: string) => `Disqualified by the host: ${reason}`,
  joinClosed: "This tournament is no longer open for joining.",
  notJoined: "You have not joined this tournament",
  notLive: "Tournament is not live",
  alreadyFinished: "You have already finished this tournament",
  noMoreQuestions: "No more questions",
  notIssued: "This question has not been issued to you",
  notCurrent: "This question is no longer open",
  alreadyAnswered: "You have already answered this question",
  notAnOption: "Answer must be one of the options",
  waitForQuestion: "The next question goes out to everyone at the same moment. Stay on this page.",
  windowClosed: "Time is up for this question",
  tooManyFrames: "Too many messages: slow down",
  invalidFrame: "Invalid frame",
  leaveClosed: "This tournament has started; entries can no longer be withdrawn.",
  left: "You have left the tournament.",
  leftRefunded: (amount: string) => `You have left the tournament. Your $${amount} entry fee is back in your balance.`,
  // Prize play keeps every verdict until the end (docs/fair-play.md); the play screen says so.
  /** Before the first question of a self-paced prize tournament, and while it is played. */
  verdictAtEnd: "Answers are locked in; your score and the correct answers are shown when the tournament ends.",
  /** An answer's reply in prize play: accepted, nothing about right or wrong. */
  answerLocked: "Answer locked in",
  /** After the last answer of a self-paced prize tournament; `when` reads like "Nov 26, 10:00 AM". */
  resultsAtEnd: (when: string) => `You've finished. Your score and the correct answers are shown when the tournament ends (${when}).`,
  /** In the live board and the player's history, in place of a score not shown yet. */
  scoreAtEnd: "Shown at the end",
} as const;

export const PLAYER = {
  notFound: "Player not found",
} as const;

/** How each tournament format is labelled to players. */
export const FORMAT_LABEL = {
  self_paced: { title: "Self-paced", description: "Play the ten questions at your own pace while the tournament is live." },
  live_show: { title: "Live show", description: "Live show: everyone gets each question at the same moment." },
} as const;

/** An operator's free-text reason set inside a sentence: no closing punctuation of its own. */
const clause = (text: string) => text.trim().replace(/[.!?\s]+$/, "");

export const FAIR_PLAY = {
  notRevealed: "The fairness key is published once the tournament has been settled.",
  cancelledNotRevealed: "This tournament was cancelled before its questions were shown: there is nothing to verify.",
  prizeUnderReview: "Prize under review",
  prizeForfeited: "Prize forfeited after review",
  answerWithheld: "The correct answer is shown when the tournament ends.",
  heldPrizeNotFound: "Held prize not found",
  prizeNotHeld: "This prize has already been released or forfeited",
  releaseApprovalRequested: (threshold: string) =>
    `Releasing this prize needs a second operator: with the last 24 hours' payouts by you or to this player it comes to more than ${threshold} (or it is your own). It waits in Approvals.`,
  releaseSummary: (usd: string, username: string, title: string, id: number) =>
    `Release the held prize of $${usd} to ${username} (${title}, prize #${id})`,
  heldPrizeStatus: "status must be held or all",
  forfeitReasonLength: "Reason must be 3-500 characters",
  /** The house ledger's line for a forfeited prize (operators read it). */
  forfeitedPrize: (title: string, reason: string) => `Forfeited prize: ${title} (fair-play review: ${clause(reason)})`,
  botCheckFailed: "We could not confirm you are a person. Please try the check again.",
  botCheckUnavailable: "The bot check could not load. Check your connection and reload the page.",
  botCheckPending: "Complete the check above first.",
  receiptUnsigned: "Answer receipts are not configured on this server (RECEIPT_SECRET)",
} as const;

/** The web app's fairness check and receipt texts (the e2e journey reads the verdicts too). */
export const VERIFY_FAIRNESS = {
  commitmentExplained:
    "A fingerprint of this tournament's questions and correct answers, published before the start. After the end anyone can check that the questions asked and their answers did not change.",
  matches: "Matches the commitment published before the start",
  mismatch: "Does NOT match the commitment published before the start",
  /** v2 (decision 015): nothing was drawn, so nothing was revealed and there is nothing to recompute. */
  nothingRevealed: "No question was drawn, so none is revealed and there is nothing to check",
  treeExplained:
    "Each question a player was asked is revealed with a proof that it is one of those fingerprinted before the start. Questions nobody was asked stay secret.",
  /** How much of a v2 commitment the reveal opened. */
  revealedCount: (revealed: number, committed: number) =>
    revealed === committed
      ? `All ${committed} committed questions were drawn and revealed`
      : `${revealed} of ${committed} committed questions were drawn and revealed; ${committed - revealed} stay secret`,
  proofVerified: "Proof checks out",
  proofFailed: "Proof does NOT check out",
  receiptGenuine: "Genuine: this receipt was signed by Trivia Arena and has not been changed.",
  receiptNotGenuine: "Not genuine: this receipt was not signed by Trivia Arena, or it was changed after signing.",
} as const;

/** What fair play means on this platform, as the home page and the FAQ say it: each claim is something the product does. */
export const FAIR_PLAY_GUARANTEE = [
  "Paid games are live shows: everyone gets each question at the same moment, and the answers are revealed only after the answer window closes.",
  "Self-paced prize games draw each player's questions from a pool, lock each answer in, and show the scores and the correct answers only after the tournament ends.",
  'Before it starts, every tournament publishes a fingerprint of its questions and answers that anyone can check afterwards with "Verify fairness".',
  "Every answer gets a receipt signed by our server.",
  "Bot-like and colluding play is flagged, and its prize is held for review.",
] as const;

/** Reasons written to cheat_attempts (read by operators, not shown to players). */
export const CHEAT = {
  unknownQuestion: (q: number) => `Answered question ${q}, which is not part of this tournament`,
  notIssued: (q: number) => `Answered question ${q} before it was issued`,
  notCurrent: (q: number) => `Answered question ${q} after a later question was issued`,
  secondAnswer: (q: number) => `Sent a different second answer to question ${q}`,
  afterFinish: (q: number) => `Answered question ${q} after finishing the tournament`,
  beforeStart: (q: number) => `Answered question ${q} before the tournament started`,
} as const;

export const NOTIFY = {
  started: (title: string) => `${title} has started. Good luck!`,
  ended: (title: string) => `${title} has ended. Check the final leaderboard.`,
  /** `refunded`: there was an entry fee to give back (a free tournament had none). */
  cancelled: (title: string, refunded: boolean) =>
    `${title} was cancelled: not enough players joined.${refunded ? " Your entry fee has been refunded." : ""}`,
  cancelledByOperator: (title: string, reason: string, refunded: boolean) =>
    `${title} was cancelled by the organisers: ${clause(reason)}.${refunded ? " Your entry fee has been refunded." : ""}`,
  payoutFailed: (usd: string, reason: string) =>
    `Your withdrawal of $${usd} could not be paid: ${clause(reason)}. The money is back in your balance.`,
  prizeReleased: (usd: string, title: string) => `Your prize of $${usd} for ${title} has been released after review.`,
  // The rule behind a forfeit is not named to the player, as with reviewReasonOf.
  prizeForfeited: (title: string) => `Your prize for ${title} was forfeited after a fair-play review.`,
  disqualified: (title: string, reason: string) =>
    `You were disqualified from ${title} by the host: ${clause(reason)}. Your answers no longer count and you are out of the ranking.`,
  questionReportResolved: (question: string, resolution: "fixed" | "retired" | "dismissed") =>
    `Thanks for reporting "${question.length > 60 ? `${question.slice(0, 57)}...` : question}": ` +
    {
      fixed: "we have corrected it.",
      retired: "we have taken it out of play.",
      dismissed: "we checked it and it stays as it is.",
    }[resolution],
} as const;

/** A time as the Worker's texts name it (mails, refusals): one zone for everyone, UTC. */
export const utcTime = (ms: number) =>
  `${new Date(ms).toLocaleString("en-US", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })} UTC`;

/** How long until a start, in a reminder: "in 24 hours", "in 8 minutes". */
export function timeLeftText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 90) return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  return `in ${hours} hours`;
}

/** Featured events, "Remind me" and priority access (docs/featured-events.md). */
export const FEATURED = {
  title: "Featured events",
  subtitle: "Special events, announced at least a week ahead.",
  remindMe: "Remind me",
  reminderOn: "Reminder on",
  removeReminder: "Remove reminder",
  reminderSet: "Reminder set: we'll notify you 24 hours and 10 minutes before the start.",
  reminderRemoved: "Reminder removed.",
  reminderFailed: "Could not change the reminder",
  signInToRemind: "Sign in to get a reminder",
  notFeatured: "Reminders are offered for featured events only.",
  closed: "This event has already started, so there is nothing left to remind you of.",
  opensForYou: (when: string) => `Registration opens for you on ${when}`,
  opens: (when: string) => `Registration opens on ${when}`,
  priority: "Priority access: opens for you 24 h early",
  priorityHint: "Advanced players (level 6+) can register 24 hours before everyone else.",
  registrationNotOpen: (when: string, priority: boolean) =>
    `Registration for this featured event opens for you on ${when}${priority ? " (priority access for Advanced players, 24 hours before everyone else)" : ". Advanced players (level 6+) can register 24 hours earlier"}.`,
  reminder: (title: string, left: string) => `Reminder: ${title} starts ${left}.`,
  emailSetting: "Email me event reminders",
  emailSettingHint: 'When you press "Remind me" on a featured event, we also send the reminders by email.',
} as const;

/** A player's level where others see it; null when the player hides it (preferences.showLevel = false). */
export const PLAYER_LEVEL = {
  hidden: "Level hidden",
  label: (level: number | null) => (level === null ? "Level hidden" : `Level ${level}`),
  /** In a column headed Level. */
  cell: (level: number | null) => (level === null ? "Hidden" : String(level)),
} as const;

/** A cancelled tournament's page, by cause (docs/product.md, Lifecycle); `refunded`: there were entry fees to give back. */
export const CANCELLATION = {
  title: "Tournament Cancelled",
  tooFewPlayers: (refunded: boolean) => `Not enough players joined in time.${refunded ? " Every entry fee has been refunded." : ""}`,
  byCreator: "Cancelled by the player who created it, before anyone joined.",
  byOperator: (reason: string | null, refunded: boolean) =>
    `Cancelled by the organisers${reason ? `: ${clause(reason)}.` : "."}${refunded ? " Every entry fee has been refunded." : ""}`,
} as const;

export const JOIN = {
  authRequired: { title: "Authentication required", description: "Please log in to join tournaments." },
  levelTitle: "Level requirement not met",
  levelDescription: (minLevel: number) => `You need to be level ${minLevel} to join this tournament.`,
  full: { title: "Tournament is full", description: "This tournament has reached its maximum number of participants." },
  /** An operator, or an account on a device or network an operator recently used, asks to join a prize tournament. */
  staffExcluded: { title: "Not open to staff", description: "Staff and accounts linked to staff cannot play for prizes." },
  balanceTitle: "Insufficient balance",
  balanceDescription: (shortfall: string, fee: string) => `You need $${shortfall} more to join this tournament. Full entry fee: $${fee}.`,
  /** A join the server refused (its `{message}` is the description: the reason in the player's words). */
  failedTitle: "Failed to join tournament",
  practiceUnavailable: "Practice for this category is not available right now: it has too few questions.",
  /** The join button's toast when the call fails without a refusal of the server's (no answer, a server error). */
  error: { title: "Error joining tournament", description: "Please try again" },
  /** Joined from a card: the player is taken to their tournaments. */
  joinedAway: { title: "Successfully joined tournament!", description: "Taking you to your tournaments..." },
  /** Joined on the tournament's own page: the player stays there, registered. */
  joinedHere: { title: "Joined tournament", description: "You have been registered for this tournament." },
  /** A joined player going from the tournament's page into live play. */
  entering: "Entering tournament",
} as const;

export const MONEY = {
  amountDecimals: "Amount can have at most 2 decimal places",
  amountTooLarge: "Amount is too large",
  minDeposit: (usd: string) => `The minimum deposit is $${usd}`,
  maxDeposit: (usd: string) => `The maximum deposit is $${usd}`,
  minWithdrawal: (usd: string) => `The minimum withdrawal is $${usd}`,
  cardDeclined: "Your card was declined.",
  cardNumberInvalid: "Your card number is invalid.",
  cardExpiryInvalid: "Your card's expiration date is invalid.",
  cardExpired: "Your card has expired.",
  cvcInvalid: "Your card's security code is invalid.",
  sandboxTestCardsOnly: "The sandbox accepts test cards only: use 4242 4242 4242 4242.",
  paymentNotFound: "Payment not found",
  paymentNotSucceeded: "Payment has not succeeded",
  paymentReversed: "This payment was refunded or disputed at the card issuer before it reached your balance, so it cannot be credited.",
  paymentOtherAccount: "This payment belongs to another account",
  amountMismatch: "Amount does not match the payment",
  currencyUnsupported: "Only USD payments can be deposited",
  providerUnavailable: "The payment provider could not be reached. Please try again.",
  bankDetailsMissing: "Please fill in all bank account fields.",
  holderNameRequired: "Account holder name is required",
  holderNameLength: "Account holder name must be 2-100 characters",
  accountNumberRequired: "Account number is required",
  accountNumberInvalid: "Account number must be 4-17 digits",
  routingNumberRequired: "Routing number is required",
  routingNumberFormat: "Routing number must be 9 digits",
  routingNumberInvalid: "Invalid routing number",
  accountTypeInvalid: "Account type must be checking or savings",
  methodUnsupported: "Bank Account is the only withdrawal method",
  payoutNotFound: "Payout not found",
  payoutAlready: (status: string) => `This payout is already ${status}`,
  payoutReasonRequired: "A reason is required",
  /** The confirm page's "Withdrawal Error" toast when the server sends no message of its own. */
  withdrawalDefaultError: "Failed to confirm withdrawal",
  /** The withdraw dialog's "Withdrawal Failed" toast when its form is refused for a reason other than the method (the field says which). */
  withdrawalDialogError: "There was an error processing your withdrawal. Please try again.",
  /** A withdrawal is only requested when the player confirms it: the bank transfer follows. */
  withdrawalRequestedTitle: "Withdrawal Requested",
  withdrawalRequested: (usd: string) =>
    `${usd} is on its way to your bank account and should arrive in 1-3 business days. Follow it under Transaction History.`,
  /** What is kept of the bank account a withdrawal goes to (docs/payments.md). */
  bankAccountKept:
    "Your full account number is stored encrypted and used only to make the bank transfer; we only ever show its last 4 digits.",
  /** Appended to a failed withdrawal's transaction description. */
  returnCodeInvalid: "The bank's return code is R01 to R85, as on its return notice",
  returnDateInvalid: "The return date is the day the bank returned the payment, written YYYY-MM-DD",
  returnCodeAndDate: "A bank return needs both its code (R01-R85) and the date the bank returned it",
  withdrawalFailedNote: (reason: string) => ` — failed: ${clause(reason)}. The money was returned to your balance.`,
  paymentsNotConfigured: "Card payments are not available on this site. Please contact support if you need to add funds.",
  /** The checkout's state on a site without card payments. */
  cardPaymentsUnavailable: "Card payments are not available here.",
  /** A withdrawal above what may leave now; `until` is when the next held part frees (null: it does not free by time). */
  withdrawableOnly: (withdrawableUsd: string, heldUsd: string, until: string | null) =>
    `You can withdraw up to $${withdrawableUsd} now. $${heldUsd} of your balance is on hold` +
    (until ? `; more becomes withdrawable on ${until}.` : ": test-payment (sandbox) money cannot be withdrawn on this site."),
  /** Why part of the balance is held, for the wallet. */
  heldRecentDeposits: (hours: number) => `Card deposits can be withdrawn ${hours} hours after they are made, unless used for entry fees.`,
  heldSandboxDeposits: "Test-payment (sandbox) deposits cannot be withdrawn on this site.",
  /** A prize paid from entry fees whose card deposits are still on hold: when it frees. */
  prizeAvailableOn: (when: string) => `Prize available on ${when}: it was paid from entry fees whose card deposits are still on hold.`,
  /** The withdraw dialog's field error for an amount within the balance but above what may leave now. */
  aboveWithdrawable: (usd: string) => `You can withdraw up to $${usd} now; the rest of your balance is on hold`,
  /** Stored as users.frozen_reason when a refund or dispute leaves money owed. */
  frozenOwed: "A card refund or dispute took more than the balance held",
  accountFrozen: (owedUsd: string) =>
    `Your account is frozen: a card payment was refunded or disputed after the money was used, and $${owedUsd} is owed. ` +
    "Your next deposit settles it first; contact support if you think this is wrong.",
  /** A withdrawal's card part (closed loop): its ledger description, and the player's line. */
  cardRefundRow: (usd: string, last4: string | null) => `Refund to card ${last4 ? `…${last4}` : "that paid"} ($${usd}, withdrawal)`,
  cardRefundPart: (usd: string, last4: string | null) => `$${usd} back to your card${last4 ? ` ending ${last4}` : ""}`,
  cardRefundFailed: (usd: string, last4: string | null) =>
    `$${usd} could not be refunded to your card${last4 ? ` ending ${last4}` : ""}; it is back in your balance`,
  cardRefundFailedNote: " — the card refund failed; the money was returned to your balance.",
  bankPart: (usd: string) => `$${usd} to your bank account, 1-3 business days`,
  /** Ledger descriptions of reversed card payments (the row's amount says how much). */
  cardRefund: "Card payment refunded",
  chargeback: "Card payment disputed (chargeback)",
  chargebackReversal: "Card dispute won: the money is back",
  owedRepaid: "Settles what was owed after a card refund or dispute",
  checkoutCancelled: "This checkout was cancelled (a break started) and can no longer be paid.",
  /** A payment refused when it was credited: what was refused, why, and that it goes back to the card. */
  depositRefunded: (usd: string, why: string) =>
    `Your payment of $${usd} was not added to your balance: ${clause(why)}. It is being refunded to your card in full; ` +
    "a card refund usually shows within 5-10 business days.",
  /** The ledger row of such a payment (status refunded; never in the balance). */
  depositRefundedRow: (usd: string, why: string) => `Card payment of $${usd} refunded to the card: ${clause(why)}`,
  /** Why a payment could not be credited, by refusal code (worker/payments/deposits.ts). */
  depositRefusedWhy: {
    max_deposit: (maxUsd: string) => `it is above the largest single deposit of $${maxUsd}`,
    account_closed: "this account is closed",
    account_suspended: "this account is suspended",
    self_excluded: "you have excluded yourself from play",
    cooling_off: "you are on a cool-off break",
    checkout_cancelled: "this checkout was cancelled when your break started",
    region_barred: "deposits are not available in your region",
    date_of_birth_required: "we do not have your date of birth",
    underage: (minAge: number) => `you must be at least ${minAge} to deposit`,
    identity_duplicate_account: "you already have a verified account with us (one person, one account)",
    deposit_daily: "it would go over your daily deposit limit",
    deposit_weekly: "it would go over your weekly deposit limit",
    deposit_monthly: "it would go over your monthly deposit limit",
  },
} as const;

export const ACCOUNT = {
  twoFactorAlreadyEnabled: "Two-factor authentication is already enabled",
  twoFactorNotEnabled: "Two-factor authentication is not enabled",
  twoFactorSetupFirst: "Start two-factor setup first",
  codeRequired: "Code is required",
  passwordRequired: "Password is required",
  passwordWrong: "Password is incorrect",
  deleteConfirm: "Type DELETE to confirm",
  deleteBalance: (usd: string) => `Withdraw your remaining balance of $${usd} before deleting your account.`,
  deletePendingWithdrawal: "A withdrawal is still being processed. You can delete your account once it is paid.",
  deleteActiveTournament: "You are registered in a tournament that has not finished. You can delete your account after it ends.",
  deleteRetry: "Your account changed while it was being deleted. Please try again.",
  deleted: "Account deleted",
} as const;

/** Email verification and password reset, as the API and the web pages say it. */
export const EMAIL = {
  unverified: "Verify your email address before your first withdrawal: open the link we emailed you, or ask for a new one.",
  alreadyVerified: "Your email address is already verified.",
  verificationSent: (email: string) => `We sent a verification link to ${email}. It works for 24 hours.`,
  verified: "Your email address is verified.",
  verifyTokenInvalid: "This verification link is invalid, used or expired. Sign in and ask for a new one from your wallet.",
  verifyTokenMissing: "This link has no token. Open the link from the email exactly as we sent it.",
  bannerTitle: "Verify your email address",
  bannerText: (email: string) => `Withdrawals need a verified email. Open the link we sent to ${email}, or ask for a new one.`,
  resend: "Send a new link",
  resetRequested: "If an account uses that address, we sent it a link to reset the password. The link works for 30 minutes.",
  resetTokenInvalid: "This reset link is invalid, used or expired. Ask for a new one.",
  resetDone: "Your password is reset and you were signed out everywhere. Sign in with the new password.",
  outboxOff: "The local outbox is off here: this server sends mail through its provider, or is not on this machine.",
  outboxEmpty: "No mail yet. Register, ask for a password reset or change a security setting, and the mail appears here.",
} as const;

/** Greeting for a player's mail. */
const hi = (username: string) => `Hi ${username},`;
const notYou = "If this wasn't you, reset your password now (Forgot password? on the sign-in page) and contact support.";

/** The account mails: subject and plain-text body. Links are absolute URLs to this site. */
export const MAIL = {
  eventReminder: (username: string, title: string, left: string, when: string, link: string, settings: string) => ({
    subject: `Reminder: ${title} starts ${left}`,
    text: `${hi(username)}\n\nYou asked us to remind you: ${title} starts ${left}, on ${when}.\n\n${link}\n\nYou get this because you pressed "Remind me" on this featured event. To stop these emails, turn off "Email me event reminders" in your profile: ${settings}`,
  }),
  verify: (username: string, link: string) => ({
    subject: "Verify your email address for Trivia Arena",
    text: `${hi(username)}\n\nConfirm that this is your email address by opening this link (it works for 24 hours):\n\n${link}\n\nYou need a verified address to withdraw winnings. If you did not sign up for Trivia Arena, ignore this mail.`,
  }),
  reset: (username: string, link: string) => ({
    subject: "Reset your Trivia Arena password",
    text: `${hi(username)}\n\nSomeone asked to reset the password of your Trivia Arena account. To choose a new password, open this link (it works for 30 minutes, once):\n\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.`,
  }),
  passwordChanged: (username: string) => ({
    subject: "Your Trivia Arena password was changed",
    text: `${hi(username)}\n\nThe password of your Trivia Arena account was just changed, and other sessions were signed out.\n\n${notYou}`,
  }),
  emailChanged: (username: string, newEmail: string) => ({
    subject: "Your Trivia Arena email address was changed",
    text: `${hi(username)}\n\nThe email address of your Trivia Arena account was changed to ${newEmail}. Mail about the account now goes there.\n\n${notYou}`,
  }),
  twoFactorEnabled: (username: string) => ({
    subject: "Two-factor authentication is on",
    text: `${hi(username)}\n\nTwo-factor authentication was turned on for your Trivia Arena account: signing in now also asks for a code from your authenticator app.\n\n${notYou}`,
  }),
  usernameChanged: (oldName: string, newName: string) => ({
    subject: "Your Trivia Arena username was changed",
    text: `${hi(newName)}\n\nThe username of your Trivia Arena account was changed from ${oldName} to ${newName}. You sign in with the new name now.\n\n${notYou}`,
  }),
  secondFactorLocked: (username: string) => ({
    subject: "Too many wrong sign-in codes",
    text: `${hi(username)}\n\nSomeone entered your password correctly and then too many wrong two-factor codes for your Trivia Arena account, so codes are not accepted for up to an hour. Your account is safe while the codes stay secret.\n\nIf this wasn't you, your password is known to someone else: change it now (Forgot password? on the sign-in page) and contact support.`,
  }),
  twoFactorDisabled: (username: string) => ({
    subject: "Two-factor authentication is off",
    text: `${hi(username)}\n\nTwo-factor authentication was turned off for your Trivia Arena account: signing in now needs only the password.\n\n${notYou}`,
  }),
  withdrawalRequested: (username: string, usd: string, last4: string, when: string) => ({
    subject: `Withdrawal of $${usd} requested`,
    text: `${hi(username)}\n\nA withdrawal of $${usd} to the bank account ending in ${last4} was requested on ${when}. It is paid within 1-3 business days.\n\n${notYou}`,
  }),
  taxFormFiled: (username: string, last4: string, when: string) => ({
    subject: "Your tax information (W-9) was updated",
    text: `${hi(username)}\n\nA W-9 with the taxpayer identification number ending in ${last4} was filed for your Trivia Arena account on ${when}. It replaces any earlier one for your prizes' tax reporting.\n\n${notYou}`,
  }),
} as const;

/** A moment as the server's refusals name it: the server does not know the player's time zone, so UTC, said so. */
const utcMoment = (ms: number) => {
  const d = new Date(ms);
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")} UTC`;
};

const PERIOD_WORD = { daily: "daily", weekly: "weekly", monthly: "monthly" } as const;
const PERIOD_SPAN = { daily: "24 hours", weekly: "7 days", monthly: "30 days" } as const;

/** Responsible play and eligibility (docs/responsible-play.md): every refusal says what to do or when it ends. */
export const RESPONSIBLE = {
  limitName: (family: "deposit" | "entry_fees", period: keyof typeof PERIOD_WORD) =>
    `${PERIOD_WORD[period]} ${family === "deposit" ? "deposit" : "entry-fee"} limit`,
  /** A deposit or entry fee over a limit: which one, what is left, and when the amount fits. */
  limitReached: (p: {
    family: "deposit" | "entry_fees";
    period: keyof typeof PERIOD_WORD;
    limitUsd: string;
    leftUsd: string;
    amountUsd: string;
    fitsAt: number | null;
  }) => {
    const what = p.family === "deposit" ? "deposit" : "spend on entry fees";
    const head = `This would go over your ${RESPONSIBLE.limitName(p.family, p.period)} of $${p.limitUsd} (the last ${PERIOD_SPAN[p.period]}).`;
    const left = `You can ${what} up to $${p.leftUsd} now.`;
    const when =
      p.fitsAt === null
        ? `$${p.amountUsd} is more than the limit itself; raising a limit takes 24 hours to apply.`
        : `$${p.amountUsd} fits again from ${utcMoment(p.fitsAt)}.`;
    return `${head} ${left} ${when}`;
  },
  coolingOff: (endsAt: number) =>
    `You are taking a break until ${utcMoment(endsAt)}: deposits and joining tournaments are paused until then. Your balance can still be withdrawn.`,
  selfExcluded: (endsAt: number | null) =>
    endsAt === null
      ? "You have excluded yourself permanently: deposits and joining tournaments are closed on this account. Your balance can still be withdrawn."
      : `You have excluded yourself until ${utcMoment(endsAt)}: deposits and joining tournaments are closed until then. Your balance can still be withdrawn.`,
  exclusionActive: (endsAt: number | null) =>
    endsAt === null
      ? "A permanent self-exclusion is already in force on this account."
      : `A break already in force lasts until ${utcMoment(endsAt)}; choose a longer one to extend it.`,
  dateOfBirthRequired: "Please enter your date of birth before your first deposit or paid entry.",
  dateOfBirthAlreadySet: "Your date of birth is already on file. To correct it, contact support.",
  dateOfBirthInvalid: "Enter a real date of birth as YYYY-MM-DD",
  dateOfBirthFuture: "A date of birth cannot be in the future",
  dateOfBirthTooEarly: "Please check the year of your date of birth",
  underage: (minAge: number) =>
    `You must be at least ${minAge} to deposit or pay entry fees where you are. Free tournaments stay open to you.`,
  regionBarred: (code: string) =>
    `Deposits, paid tournaments and withdrawals are not available in your region (${code}). Free tournaments stay open to you; if you moved, contact support about your balance.`,
  limitInvalid: "A limit must be a positive amount, or empty for no limit",
  passwordWrong: "Password is incorrect",
  limitsSaved: "Limits saved",
  coolOffStarted: (endsAt: number) => `Your break has started. It ends ${utcMoment(endsAt)}.`,
  selfExclusionStarted: (endsAt: number | null) =>
    endsAt === null ? "Your permanent self-exclusion has started." : `Your self-exclusion has started. It ends ${utcMoment(endsAt)}.`,
} as const;

/** Identity verification (docs/identity-and-tax.md, "Identity"). */
export const IDENTITY = {
  tooManySessions: "You have started several verifications in the last hour. Please wait an hour, then try again.",
  verificationRequired:
    "Before your first withdrawal to a bank account, please verify your identity (Profile, Identity). Card refunds of recent deposits need no verification.",
  verifyAgainRequired:
    "Please verify your identity again before this withdrawal (Profile, Identity): your withdrawals have passed the amount your last verification covers, or our team asked for a new check.",
  pending: "Your identity verification is still being checked. You can withdraw to a bank account once it is verified.",
  requiresInput: (reason: string | null) =>
    `Your identity verification needs another try${reason ? `: ${reason}` : "."} Please verify again (Profile, Identity) before withdrawing to a bank account.`,
  refused: (reason: string | null) =>
    `Your identity could not be verified${reason ? `: ${reason}` : "."} Withdrawals to a bank account stay closed; please contact support.`,
  nameMismatch: (legalName: string) =>
    `The bank account holder name must be your verified legal name (${legalName}). Middle names may be left out; please use an account in your own name.`,
  duplicateAccount:
    "This account belongs to a person who already has a verified account with us. One person, one account: free tournaments stay open here, but deposits, paid tournaments and withdrawals are only available on your first account.",
  dateOfBirthVerified: "Your date of birth comes from your verified identity document and cannot be changed here.",
  alreadyVerified: "Your identity is already verified.",
  refusedFinal: "Your identity verification was refused. Please contact support.",
  notConfigured: "Identity verification is not available on this site right now.",
  sessionNotFound: "That verification session is not yours or no longer open.",
  nameRequired: "Enter the legal name as it is on the document",
  dateOfBirthInvalid: "Enter a real date of birth as YYYY-MM-DD",
  documentNumberInvalid: "Enter the document number (4 to 30 letters or digits)",
  documentCountryInvalid: "Enter the issuing country as two letters (US, GB, …)",
  /** The Identity section of the profile. */
  title: "Identity",
  intro:
    "We verify who you are with a photo of an identity document and a selfie before your first withdrawal to a bank account. The document images stay with our verification provider; we keep your legal name, date of birth and the document's country.",
  stateLabel: {
    not_started: "Not started",
    pending: "Pending",
    verified: "Verified",
    requires_input: "Needs another try",
    refused: "Refused",
  },
  start: "Verify my identity",
  tryAgain: "Try again",
  verifyAgainNote: "Please verify your identity again before your next withdrawal to a bank account.",
  duplicateNote: "This account is linked to another account of the same person: only free tournaments are open here.",
  verifiedAs: (name: string) => `Verified as ${name}`,
  sandboxTitle: "Sandbox identity check",
  sandboxIntro:
    "This test page stands in for the identity provider on this local site. Pick an outcome; for a verified identity, type the legal name, date of birth and document as they would appear on the document.",
  sandboxDone: "Done. Your identity verification has been updated.",
} as const;

/** The web app's responsible-play texts. */
export const RESPONSIBLE_UI = {
  dateOfBirthTitle: "Your date of birth",
  dateOfBirthWhy: "We ask once, before your first deposit or paid entry, to make sure you are old enough to play for money where you are.",
  dateOfBirthOnce: "It can be given only once; to correct it later, contact support.",
  dateOfBirthFailed: "Your date of birth could not be saved",
  coolOffConfirm: (period: string) =>
    `For ${period} you will not be able to deposit or join any tournament, free or paid. Tournaments you joined that have not started are left and their fees refunded. A break cannot be ended early.`,
  selfExclusionConfirm: (period: string) =>
    `${period === "permanently" ? "Permanently" : `For ${period}`}, you will not be able to deposit or join any tournament, free or paid. Tournaments you joined that have not started are left and their fees refunded. A self-exclusion cannot be undone or shortened. Your balance stays yours to withdraw.`,
  limitsFailed: "Your limits could not be saved",
  exclusionFailed: "That could not be started",
} as const;

/** Refusals about the Idempotency-Key header of money requests (docs/payments.md, "Retrying a money request"). */
export const IDEMPOTENCY = {
  required: "This request needs an Idempotency-Key header (8-100 letters, digits, _ or -), the same on every retry of it.",
  invalid: "The Idempotency-Key header must be 8-100 letters, digits, _ or -.",
  reused: "This Idempotency-Key was already used for another request. Check your balance and transactions, then start the action again.",
  inProgress: "The first request with this Idempotency-Key is still being processed. Please retry in a few seconds.",
} as const;

/** The operator console's frame (docs/operating.md). */
export const ADMIN_CONSOLE = {
  operatorsOnlyTitle: "Operators only",
  operatorsOnly: "The console is for the people who run this site. Your account is a player account.",
  twoFactorTitle: "Turn on two-factor authentication",
  twoFactorRequired: "Operators must have two-factor authentication on before the console opens.",
  twoFactorAction: "Set it up in your profile",
} as const;

/** Players' question reports and their resolution. */
export const QUESTION_REPORT = {
  reasons: { wrong_answer: "Wrong answer", unclear: "Unclear", typo: "Typo", offensive: "Offensive" },
  reason: "Choose a reason: wrong answer, unclear, typo or offensive",
  noteLength: "The note must be at most 500 characters",
  notFound: "Question not found",
  already: "You have already reported this question. Thanks: an operator will look at it.",
  sent: "Thanks: an operator will look at this question.",
  reportNotFound: "Report not found",
  alreadyResolved: (resolution: string) => `This report was already resolved (${resolution}). Reload the queue.`,
  resolution: "Choose how it was resolved: fixed, retired or dismissed",
  resolved: "Report resolved; the player has been notified",
} as const;

/** Suspensions, bans, manual adjustments and cheat-attempt reviews (docs/operating.md, "Players" and "Fair play"). */
export const MODERATION = {
  operatorBanRequested: "Banning an operator needs a second operator: the ban waits in Approvals until another operator approves it.",
  operatorBanSummary: (username: string, note: string) => `Ban the operator ${username} (${note})`,
  accountSuspended:
    "Your account is suspended: you cannot join tournaments or deposit for now. You can still withdraw your balance. Contact support to find out more.",
  accountBanned: "This account has been closed by the site's operators. Contact support about it, or about withdrawing its balance.",
  notYourself: "You cannot suspend or ban your own account. Ask another operator.",
  alreadySuspended: "This account is already suspended.",
  notSuspended: "This account is not suspended.",
  alreadyBanned: "This account is already banned.",
  notBanned: "This account is not banned.",
  noteLength: "Note must be 1-500 characters",
  sessionNotFound: "That session has already ended. Refresh the list.",
  adjustmentAmount: "amount must be a USD amount other than 0, with at most 2 decimals (negative takes money away)",
  adjustmentReason: "Reason must be 3-200 characters",
  adjustmentExceedsBalance: (balanceUsd: string) =>
    `This would take the balance below zero: the player has $${balanceUsd}. Lower the debit, or reject the request.`,
  adjustmentSummary: (signedUsd: string, username: string, reason: string) => `Adjust ${username}'s balance by ${signedUsd}: ${reason}`,
  /** The player's notification of an applied adjustment. */
  adjustedNotice: (signedUsd: string, reason: string) => `An operator adjusted your balance by ${signedUsd}: ${reason}`,
  cheatAttemptNotFound: "Cheat attempt not found",
  cheatAttemptReviewed: "This cheat attempt has already been reviewed",
  resolutionLength: "Resolution must be 1-500 characters",
  reviewFilter: "review must be open, reviewed or all",
} as const;

/** The W-9 and the withdrawal it gates (docs/identity-and-tax.md, "Tax"). */
export const TAX = {
  /** Where the form is, for links in refusals and the withdraw dialog. */
  formPath: "/profile?tab=tax",
  formRequired: (thresholdUsd: string, year: number) =>
    `Your prizes in ${year} have reached $${thresholdUsd}, so US tax law requires your tax details (a W-9) before you withdraw. ` +
    "Fill in the W-9 under Tax information on your profile page, then withdraw again.",
  formRequiredLink: "Fill in your tax information",
  legalNameRequired: "Legal name must be 2-100 characters",
  businessNameLength: "Business name must be at most 100 characters",
  classificationRequired: "Choose your federal tax classification",
  tinTypeRequired: "Choose SSN or EIN",
  tinRequired: "Enter your taxpayer identification number",
  tinFormat: "A taxpayer identification number is 9 digits",
  ssnInvalid: "This is not a valid SSN: check the number on your Social Security card",
  einInvalid: "This is not a valid EIN: check the number the IRS assigned",
  einForEntities: "A business other than an individual or sole proprietor must give its EIN",
  streetRequired: "Street address must be 2-100 characters",
  cityRequired: "City must be 2-50 characters",
  stateInvalid: "Choose a US state or territory",
  zipInvalid: "ZIP code must be 5 digits, or 5+4 like 12345-6789",
  certificationRequired: "You must certify the statements on the form to file it",
  signatureRequired: "Type your full legal name as your signature",
  signatureMismatch: "Your signature must be your legal name, as typed above",
  saved: "Your W-9 is on file.",
} as const;

/** Private custom tournaments Elite players create (docs/custom-tournaments.md). */
export const CUSTOM = {
  lockedTitle: "Custom tournaments are for Elite players",
  locked: (level: number) => `Reach level ${level} (Elite) to create custom tournaments.`,
  createTitle: "Create a custom tournament",
  titleLength: "Title must be 3-80 characters",
  categoryId: "Choose a category",
  startTime: "Start time must be a date and time",
  startTooSoon: (minutes: number) => `The start must be at least ${minutes} minutes from now, so your players have time to join.`,
  startTooLate: (days: number) => `The start must be within ${days} days.`,
  seats: (min: number, max: number) => `Seats must be a whole number from ${min} to ${max}`,
  paidSeats: (min: number) => `A tournament with an entry fee needs at least ${min} seats: it starts only with ${min} players.`,
  entryFee: (fees: string) => `The entry fee must be one of: ${fees}`,
  format: "Choose a live show or self-paced",
  tooMany: (max: number) => `You already have ${max} upcoming custom tournaments: cancel one or wait until one has started.`,
  tooFewQuestions: "This category has too few questions for a custom tournament right now. Choose another category, or try again later.",
  tooFewPracticeQuestions:
    "This category has too few practice questions for a free custom tournament right now. Choose another category, or add an entry fee.",
  notCreator: "Only the player who created this tournament can cancel it.",
  notCancellable: "Players have joined, or it has started: this tournament can no longer be cancelled.",
  cancelled: "Your custom tournament was cancelled.",
  inviteNotFound: "No tournament has this invite code. Check the link or the code and try again.",
  inviteCode: "Enter the invite code (or paste the invite link).",
  privateBadge: "Private · by invitation",
  privateNote: "Only players with the invite link or code can find and join this tournament.",
  yourInvite: "Your invitation",
  yourInviteDescription: "You created this tournament: share the invite link or the code with the players you want.",
  created: "Custom tournament created",
  createdDescription: "Share the invite link or the code: only players who have it can find and join this tournament.",
  description: (category: string, fee: string | null, format: "live_show" | "self_paced") =>
    `A private ${category} tournament: ten questions from easy to hard, four answers each. ` +
    (format === "live_show"
      ? "Played as a live show: everyone gets each question at the same moment. "
      : "Self-paced: each player plays in their own time. ") +
    (fee === null
      ? "Free entry, no prizes; correct answers still earn XP."
      : `Entry $${fee}; 85% of all entry fees go to the top three (65/25/10). Starts with at least 10 players.`),
} as const;
