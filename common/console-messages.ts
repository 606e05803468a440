// Texts of the operator console (and the Worker's admin routes), apart from common/messages.ts so
// that the public pages' first script does not carry them: the console's pages load them lazily.

/** Why an operator's question import refused a row or a file, in plain words. */
export const QUESTION_IMPORT = {
  notJson: (detail: string) => `The file is not valid JSON: ${detail}`,
  notArray: "The JSON file must be an array of question objects",
  notObject: "This item is not an object with category, question, options, correctAnswer, difficulty and explanation",
  csvEmpty: "The file is empty: it needs a header row and at least one question",
  csvUnclosedQuote: 'A quoted field is never closed (a " without its closing ")',
  csvMissingColumns: (names: string[]) => `The header row lacks the column(s): ${names.join(", ")}`,
  csvFieldCount: (got: number, want: number) => `Has ${got} fields where the header has ${want}`,
  category: (slug: string, known: readonly string[]) =>
    slug ? `Unknown category "${slug}" (known: ${known.join(", ")})` : "The category is empty",
  questionLength: (min: number, max: number, got: number) => `The question must be ${min}-${max} characters long (it has ${got})`,
  optionCount: (got: number) => `There must be exactly 4 options (there are ${got})`,
  optionEmpty: (n: number) => `Option ${n} is empty`,
  optionRepeated: (text: string) => `The option "${text}" appears more than once (options must differ, ignoring case)`,
  correctEmpty: "The correct answer is empty",
  correctNotAnOption: (text: string) => `The correct answer "${text}" is not one of the four options`,
  difficulty: (got: string) => `The difficulty must be a whole number from 1 to 3 (it is "${got}")`,
  explanationEmpty: "The explanation is empty",
  duplicate: (row: number) => `The same question (in the same category) is already in row ${row} of this file`,
  nothingValid: "No question in the file could be imported; see the rejected rows",
} as const;

/** The console's tournaments screen and its API refusals (docs/operating.md, "Tournaments"). */
export const ADMIN_TOURNAMENTS = {
  featureTooSoon: (when: string) =>
    `A featured event must be announced at least 7 days before its start: this one starts on ${when}, so it can no longer be featured. Pick a start at least a week away.`,
  registrationAfterStart: "Registration must open before the tournament starts.",
  registrationTooEarly:
    "Registration must open at least 24 hours from now: Advanced players (level 6+) register 24 hours before that, and that day must come after the announcement.",
  featuredEditUseRoute: "Feature or unfeature an existing tournament with its Featured setting (PUT /api/admin/tournaments/:id/featured).",
  featuredStartTooSoon:
    "This tournament is featured and was announced for its start: a new start must stay at least 7 days after the announcement and after registration opens. Unfeature it first to move it closer.",
  featuredNotUpcoming: "Only an upcoming tournament can be featured or unfeatured.",
  featuredPrivate: "This is a player's private custom tournament, found only by its invite code: featuring it would publish it.",
  notFound: "Tournament not found",
  editApprovalRequested:
    "A second operator approved this tournament, so its edits wait for one too: the change is made once another operator approves it in Approvals.",
  editSummary: (id: number, title: string, pool: string) =>
    `Edit "${title}" (tournament #${id}, approved before; pool ${pool} after the edit)`,
  poolNeedsApproval: (threshold: string) =>
    `A house-funded pool above ${threshold}, alone or with the house pools you created or raised in the last 24 hours, needs a second operator's approval, which this edit cannot ask for: cancel this tournament and create it again with that pool.`,
  hasPlayers:
    "Players have already joined this tournament, so it can no longer be edited. Cancel it (everyone is refunded) and create a new one instead.",
  notEditable: "Only an upcoming tournament can be edited.",
  /** A live show's play shards are fixed at creation (docs/decisions/011-one-tournament-past-one-durable-object.md). */
  shardsFixed: (seats: number) =>
    `This live show was set up for at most ${seats} players when it was created, and its seats cannot go past that. Create a new tournament for a bigger show.`,
  finished: "This tournament has already ended and paid its prizes, so it cannot be cancelled.",
  practice: "Practice tournaments are run by the schedule and cannot be edited or cancelled here.",
  questionNotFound: (ids: number[]) => `These questions are not in the bank: ${ids.join(", ")}. Pick questions from the list.`,
  questionWrongCategory: (ids: number[]) =>
    `These questions are not in the tournament's category: ${ids.join(", ")}. Pick questions of that category.`,
  questionRetired: (ids: number[]) =>
    `These questions cannot enter prize play (their answers were shown, another prize tournament holds them, or they are kept for practice or retired): ${ids.join(", ")}. Pick fresh questions.`,
  approvalRequested: (usd: string, threshold: string) =>
    `A house-funded pool of ${usd} is above ${threshold}, alone or with the house pools you created in the last 24 hours: the tournament will be created once another operator approves it.`,
  created: "Tournament created",
  updated: "Tournament saved",
  cancelled: (players: number) => `Tournament cancelled; ${players} player${players === 1 ? "" : "s"} refunded and notified`,
  alreadyCancelled: "This tournament was already cancelled; nobody was refunded twice.",
  saveFailed: "The tournament could not be saved",
  cancelFailed: "The tournament could not be cancelled",
  cancelReason: "Reason, shown to the players (3-300 characters)",
} as const;

/** The host's tools in the live view (docs/operating.md, "Host tools"). */
export const HOST_TOOLS = {
  liveShowOnly: "Only a live show can be paused or have a question voided: a self-paced tournament has no shared clock.",
  notRunning: "The host's tools act on a tournament while it runs, before its settlement begins.",
  settled: "Settlement has begun: the ranking and prizes are fixed. A prize still held for review can be forfeited in Fair play.",
  settling: "The tournament is being settled right now: try again in a moment, once its prizes are written.",
  prizePaid:
    "This player's prize was already paid to their balance (they may have withdrawn it): it can only be taken back with a balance adjustment, which a second operator approves.",
  forfeitedPrize: (title: string, reason: string) => `Forfeited prize: ${title} (disqualified by the host: ${reason})`,
  questionNotOpened: "Only a question that has gone out (open or revealed) can be voided.",
  questionNotFound: "This tournament has no such question.",
  participantNotFound: "This player is not in this tournament.",
  paused: "Paused: the current question runs to its reveal, then the show waits for you.",
  alreadyPaused: "The show was already paused.",
  resumed: "Resumed: the next question goes out to everyone after the reveal's countdown.",
  notPaused: "The show was not paused.",
  voided: (index: number) => `Question ${index + 1} voided: it counts for nobody.`,
  alreadyVoided: (index: number) => `Question ${index + 1} was already voided.`,
  disqualified: (username: string) => `${username} disqualified and told why.`,
  alreadyDisqualified: (username: string) => `${username} was already disqualified.`,
  disqualifyApprovalRequested:
    "This tournament has money in it: the disqualification moves the player's place (and any prize) to the next players, so it is carried out once another operator approves it in Approvals.",
  disqualifySummary: (username: string, title: string, id: number, reason: string) =>
    `Disqualify ${username} from "${title}" (tournament #${id}): ${reason}`,
  reasonLabel: "Reason (3-300 characters; stored in the audit log)",
  disqualifyReasonLabel: "Reason, shown to the player (3-300 characters)",
} as const;

/** The console's question bank (docs/questions.md). */
export const QUESTION_BANK = {
  notFound: "Question not found",
  invalid: (reasons: string[]) => `The question cannot be saved: ${reasons.join("; ")}`,
  duplicate: "Another question in this category has exactly this text: edit that one instead.",
  committed: (tournamentIds: number[]) =>
    `This question is in tournament${tournamentIds.length === 1 ? "" : "s"} ${tournamentIds.map((id) => `#${id}`).join(", ")}, ` +
    "not finished yet, whose questions and answers are published as a fairness commitment. Edit it after " +
    (tournamentIds.length === 1 ? "that tournament ends" : "they end") +
    ", or retire it now (new draws leave it out) and create a corrected copy.",
  searchLength: "Search for at most 100 characters",
  statusFilter: "status must be fresh, held, burned, practice_only or retired",
  practiceOnlyFlag: "practiceOnly must be true or false",
  practiceOnly: "Kept for practice: prize play never takes it",
  backToSupply: "Given back to prize play: new prize tournaments may take it",
  difficultyFilter: "difficulty must be 1, 2 or 3",
  noteLength: "The note must be at most 500 characters",
  created: "Question created",
  saved: "Question saved",
  retired: "Question retired: no draw takes it any more",
  restored: "Question restored: draws take it again",
} as const;

/** The two-person rule's refusals (docs/operating.md). */
export const APPROVALS = {
  notFound: "That approval does not exist.",
  own: "You asked for this yourself: another operator must approve or reject it.",
  ownBenefit: "This pays your own player account: another operator must approve it.",
  decided: (status: string) => `This request was already ${status}; reload the list to see who decided it.`,
  failed: (reason: string) =>
    `Carrying it out failed: ${reason} The request stays pending: fix the cause and approve it again, or reject it.`,
  failedUnknown: "an unexpected error.",
  noExecutor: "this kind of request cannot be carried out by this version of the site.",
} as const;

/** The payout queue and the ACH file (docs/operating.md, "Payouts and the ACH file"). */
export const PAYOUTS = {
  legacy: "Only the last 4 digits were kept: contact the player for their account details.",
  notExportable: (id: number) =>
    `Payout #${id} cannot go in a file: only the last 4 digits of its account were kept. Contact the player for their account details, pay it by other means and mark it paid.`,
  alreadyExported: (id: number, batchId: number) =>
    `Payout #${id} is already in batch #${batchId}: download that file again from the batches list instead.`,
  notPending: (id: number, status: string) => `Payout #${id} is already ${status}: take it out of the selection.`,
  approvalRequired: (id: number, threshold: string) =>
    `Payout #${id} is above ${threshold}: request approval and wait for another operator to approve it.`,
  approvalRequiredTotal: (id: number, threshold: string) =>
    `Payout #${id} needs a second operator: with what you, or this player, had paid out on one operator's say in the last 24 hours it comes to more than ${threshold} (or it is to your own account). Request approval and wait for another operator to approve it.`,
  approvalNotRequired: (threshold: string) =>
    `Only payouts above ${threshold}, alone or with the last 24 hours' payouts by you or to this player, need a second operator: export or pay this one directly.`,
  alreadyApproved: "This payout is already approved: export it.",
  approvalRequested: "Approval requested: another operator approves it in Approvals, then you can export it.",
  approvalSummary: (usd: string, username: string, id: number, last4: string) =>
    `Pay $${usd} to ${username} (payout #${id}, account ••••${last4})`,
  selectionEmpty: "Select at least one payout to export",
  selectionTooLarge: (max: number) => `Export at most ${max} payouts in one file`,
  exportRaced: "Another operator changed one of these payouts a moment ago: reload the queue and export again.",
  batchNotFound: "Payout batch not found",
  bankReturnRequired:
    "This payout is in an ACH file the bank received: fail it only with the bank's return, its R-code (R01-R85) and the date of the return.",
  returnDateImplausible: "The return date must be between the day the file was exported and today.",
  returnRequested:
    "Bank return recorded for approval: another operator approves it in Approvals, then the money goes back to the player's balance.",
  returnSummary: (usd: string, username: string, id: number, reason: string) => `Fail payout #${id} of $${usd} to ${username}: ${reason}`,
  achNotConfigured: (name: string, rule: string) => `The ACH file cannot be made: ${name} ${rule}. Set it in wrangler.toml [vars].`,
  sealedUnreadable: (id: number) =>
    `The account number of payout #${id} cannot be decrypted with DATA_ENCRYPTION_KEYS: keep the key it was sealed with in the list.`,
  amountFilter: (field: string) => `${field} must be an amount in dollars, like 25 or 25.50`,
} as const;

/** The 1099-MISC export (docs/identity-and-tax.md, "Tax"). */
export const TAX_CONSOLE = {
  payerNotConfigured: (name: string, rule: string) =>
    `The 1099-MISC export cannot be made: ${name} ${rule}. Set it in wrangler.toml [vars].`,
  yearInvalid: "year must be a calendar year from 2000 to next year, like 2026",
  sealedUnreadable: (userId: number) =>
    `The TIN of player #${userId}'s W-9 cannot be decrypted with DATA_ENCRYPTION_KEYS: keep the key it was sealed with in the list.`,
} as const;

/** The console's identity view (docs/identity-and-tax.md, "For operators"). */
export const IDENTITY_CONSOLE = {
  title: "Identity",
  state: "Verification",
  provider: "Provider",
  reference: "Provider reference",
  result: "Result",
  legalName: "Legal name",
  dateOfBirth: "Verified date of birth",
  documentCountry: "Document country",
  verifiedCount: "Times verified",
  noImages: "No document images are stored here: they stay with the provider, under the reference above.",
  duplicateOf: "Same person as",
  linkedAccounts: "Linked accounts",
  nameMismatches: "Withdrawals refused for the holder name",
  noMismatches: "None",
  askAgain: "Ask to verify again",
  askAgainNote: "Why (the audit log keeps it)",
  askedAgain: "The player must verify again before the next withdrawal to a bank account.",
  nothingToVerify: "This player has not verified yet: there is nothing to verify again.",
  alreadyAsked: "A new verification is already asked for.",
  linkedTitle: "Linked accounts (one person, several accounts)",
  linkedIntro:
    "Accounts verified as the same person. The first keeps every money action; the others play free tournaments only, and a self-exclusion on one applies to all.",
  noLinked: "No linked accounts.",
} as const;

/** A player's acceptances of the legal documents, in the player's file (docs/player-data.md). */
export const TERMS_CONSOLE = {
  title: "Terms accepted",
  intro: "Which version of each document the player accepted and when. Deposits, paid joins and withdrawals wait for the version in force.",
  inForce: (version: string) => `In force: version ${version}`,
  accepted: (version: string, at: string) => `Accepted version ${version} on ${at}`,
  notAccepted: "Never accepted",
  upToDate: "Up to date",
  outstanding: "Must accept the version in force",
  history: "Every acceptance kept",
  historyEmpty: "No acceptance is kept (a deleted account's are removed).",
} as const;
