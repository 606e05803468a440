// The identity of every refusal the API sends (docs/decisions/006-typed-contract.md): each 4xx
// and 5xx body is `{ code, message }`, and socket error frames carry the same codes. A code is a
// stable machine name a client branches on; the message is for people and may be reworded.

export const ERROR_CODES = [
  // Any route.
  /** A field, query or path parameter broke a rule; the message is the first rule broken. */
  "invalid_request",
  "malformed_json",
  /** A state-changing request carried a body that is not JSON. */
  "json_required",
  /** A state-changing request or a socket from another site. */
  "cross_origin",
  "not_authenticated",
  /** Signed in, but not allowed (operators' routes). */
  "forbidden",
  "not_found",
  /** A socket route asked without a WebSocket upgrade. */
  "upgrade_required",
  "rate_limited",
  /** The request body is larger than the API reads. */
  "payload_too_large",
  /** Two requests raced for one unique value and no route named the field. */
  "conflict",
  "internal",
  /** The deployment still runs with a public example secret (.dev.vars.example): it answers nothing until replaced. */
  "insecure_configuration",

  // Accounts, sign-in and account security.
  "username_taken",
  "email_taken",
  "invalid_credentials",
  /** Sign-in needs the second factor: ask for the code and send it again. */
  "two_factor_required",
  "two_factor_invalid",
  "two_factor_already_enabled",
  "two_factor_not_enabled",
  "two_factor_setup_required",
  "wrong_password",
  /** The account cannot be deleted yet; the message says why (balance, pending withdrawal, tournament). */
  "account_delete_blocked",
  /** A deposit, paid join or withdrawal before the player accepted the legal documents in force: GET /api/user/terms, accept, retry. */
  "terms_not_accepted",
  /** An acceptance naming versions that are not the ones in force: read the current ones again. */
  "terms_version_stale",
  /** Withdrawing needs a verified email address: verify it (or ask for a new link) first. */
  "email_unverified",
  "email_already_verified",
  /** A verification link that is unknown, used, expired, or for an address the account no longer has. */
  "verify_token_invalid",
  /** A password reset link that is unknown, used or expired. */
  "reset_token_invalid",
  /** A sensitive action needs the password (and a code with 2FA on) confirmed in the last minutes: POST /api/auth/step-up, then retry. */
  "step_up_required",
  /** Too many failed sign-ins for this account from this address (or, without the bot check, from everywhere); the message says how long to wait. */
  "login_locked",
  /** Too many wrong passwords for this account from everywhere: sign in again with a Turnstile token solved for "login". */
  "bot_check_required",
  /** Too many wrong second-factor codes for this account: codes are refused for a while, whatever the address. */
  "two_factor_locked",
  /** An operator's account must have two-factor authentication on before the operators' routes answer. */
  "admin_two_factor_required",

  // Players as others see them.
  "player_not_found",
  "avatar_not_found",

  // Tournaments: joining, leaving, playing.
  "tournament_not_found",
  "join_closed",
  "level_too_low",
  /** A featured event whose registration has not opened yet for this player (the message says when). */
  "registration_not_open",
  /** "Remind me" is offered for featured events only. */
  "tournament_not_featured",
  /** The event has started (or ended): nothing left to remind of. */
  "reminder_closed",
  /** An operator tried to feature a tournament less than a week before its start. */
  "featured_too_soon",
  /** A featured event's registration time is after its start or leaves no priority day. */
  "registration_time_invalid",
  "tournament_full",
  /** An operator, or an account linked to one by device or network, asked to join a prize tournament (docs/fair-play.md). */
  "staff_excluded",
  /** Not enough money for an entry fee or a withdrawal. */
  "insufficient_balance",
  "practice_unavailable",
  "not_joined",
  "leave_closed",
  "not_live",
  "already_finished",
  /** Every question has been issued: the player's next step is to complete. */
  "no_more_questions",
  "not_issued",
  "not_current",
  "already_answered",
  "not_an_option",
  /** A live show between questions: the next one goes out to everyone at once. */
  "no_open_question",
  /** A live show's answer after the question's window closed. */
  "answer_window_closed",
  /** A socket frame the server does not understand. */
  "invalid_frame",
  /** The fairness key of a tournament not settled yet (or cancelled: its questions were never shown). */
  "fairness_not_revealed",
  /** The bot check (Turnstile) failed or was missing. */
  "bot_check_failed",

  // Operators.
  "category_not_found",
  "not_enough_questions",
  /** A question form broke the import's rules; `reasons` lists every one. */
  "question_invalid",
  /** Another question of the category has the same text. */
  "question_duplicate",
  "question_not_found",
  /** The question is in a tournament not finished yet, whose questions are published as a fairness commitment. */
  "question_committed",
  /** A player reports a question once. */
  "question_already_reported",
  "question_report_not_found",
  "question_report_already_resolved",
  "payout_not_found",
  "payout_already_settled",
  "held_prize_not_found",
  /** The prize was already released or forfeited. */
  "prize_not_held",
  /** A tournament somebody joined cannot be edited any more: cancel it and create another. */
  "tournament_has_players",
  "tournament_shards_fixed",
  /** Only an upcoming tournament can be edited. */
  "tournament_not_editable",
  "tournament_private",
  /** A completed (settled) tournament cannot be cancelled. */
  "tournament_finished",
  /** The schedule's practice tournaments are not the operators' to edit or cancel. */
  "tournament_practice",
  /** A picked question is missing, of another category, or retired from prize play. */
  "question_not_usable",
  /** An edit would raise a house pool above the two-person threshold: create it anew, for a second operator to approve. */
  "house_pool_needs_approval",

  // Custom tournaments (docs/custom-tournaments.md).
  /** Creating custom tournaments needs level 10 (Elite); the message says so. */
  "custom_level_required",
  /** The player already has CUSTOM_OPEN_MAX upcoming custom tournaments. */
  "custom_limit_reached",
  /** Only the creator may cancel a custom tournament. */
  "not_creator",
  /** Someone joined, or it started: the creator can no longer cancel it. */
  "tournament_not_cancellable",
  /** No tournament has this invite code. */
  "invite_not_found",

  // Deposits.
  "payment_not_found",
  "payment_other_account",
  "payment_not_succeeded",
  "payment_reversed",
  /** The payment arrived but could not be credited (a limit, a break, a suspension…): it is refunded to the card; the message says why. */
  "deposit_refunded",
  /** The checkout was cancelled (a break started) and can no longer be paid. */
  "checkout_cancelled",
  "amount_mismatch",
  "currency_unsupported",
  "card_declined",
  "provider_unavailable",
  "webhook_not_configured",
  "webhook_signature_invalid",

  // Responsible play and eligibility (docs/responsible-play.md).
  /** A deposit over one of the player's own deposit limits; the message names the limit, what is left and when it frees up. */
  "deposit_limit_reached",
  /** A paid join over the player's own entry-fee limit; the message names the limit, what is left and when it frees up. */
  "spend_limit_reached",
  /** No deposits or joins during a cool-off; the message says when it ends. */
  "cooling_off",
  /** No deposits or joins during a self-exclusion; the message says when it ends (or that it is permanent). */
  "self_excluded",
  /** A deposit or paid join before the player gave a date of birth: ask for it, then retry. */
  "date_of_birth_required",
  /** The date of birth is already set; only an operator changes it. */
  "date_of_birth_already_set",
  /** Under the minimum age where the request comes from. */
  "underage",
  /** Deposits, paid joins and withdrawals are not offered where the request comes from. */
  "region_barred",
  /** A cool-off or self-exclusion asked for while one already in force lasts as long or longer. */
  "exclusion_active",
  // Retrying money requests (the Idempotency-Key header).
  /** A money request that must carry an Idempotency-Key (withdrawals) came without one. */
  "idempotency_key_required",
  /** The key was used before for another operation or other parameters; nothing was done. */
  "idempotency_key_reused",
  /** The first request with this key has not finished: retry shortly. */
  "idempotency_key_in_progress",
  /** This site takes no card payments (no Stripe key, or the sandbox off its hosts). */
  "payments_not_configured",
  /** Part of the balance is held (recent deposits): the message names what can be withdrawn now and when more frees up. */
  "funds_on_hold",
  /** A card refund or dispute left money owed: no joins, no withdrawals until it is settled. */
  "account_frozen",

  // The operator console's two-person rule.
  "approval_not_found",
  /** Nobody approves or rejects their own request: another operator must. */
  "own_approval",
  /** Nobody approves what pays their own player account (a payout to them, an adjustment of their balance, their held prize). */
  "own_benefit",
  /** The approval was already approved or rejected (perhaps by another operator a moment ago). */
  "approval_decided",
  /** Carrying out the approved action failed; the approval stays pending. */
  "approval_failed",
  // Operators' moderation and players (docs/operating.md, "Players").
  /** An operator suspended the account: no joins, no deposits; withdrawing the balance stays open. */
  "account_suspended",
  /** An operator banned the account: no sign-in, every session refused. */
  "account_banned",
  /** An operator may not suspend or ban their own account. */
  "cannot_moderate_self",
  /** The account is already in the state asked for (suspended, not suspended, banned, not banned). */
  "moderation_unchanged",
  /** No such session of this player (already ended or revoked). */
  "session_not_found",
  /** A debit adjustment larger than the player's balance. */
  "adjustment_exceeds_balance",
  "cheat_attempt_not_found",
  /** The cheat attempt was already reviewed. */
  "cheat_attempt_reviewed",
  /** A payout above the two-person threshold that a second operator has not approved yet: request approval first. */
  "approval_required",
  /** Only a payout above the two-person threshold waits for a second operator (or it is approved already). */
  "approval_not_required",

  // Payouts and the ACH file (docs/operating.md, "Payouts and the ACH file").
  /** Only the last 4 digits of the account were kept: pay it outside the file, after asking the player. */
  "payout_not_exportable",
  /** The payout is already in an ACH file (a batch). */
  "payout_already_exported",
  "payout_batch_not_found",
  /** A payout of an exported ACH file fails only with the bank's return: its R-code and date (and a second operator). */
  "bank_return_required",
  /** The ACH_* identity variables are missing or malformed: the message names which. */
  "ach_not_configured",

  // Tax details of US winners (docs/identity-and-tax.md, "Tax").
  /** A US player whose prizes this calendar year reached the reporting threshold withdraws only with a W-9 on file: file it, then retry. */
  "tax_form_required",
  /** The TAX_PAYER_* variables are missing or malformed: the message names which. */
  "tax_payer_not_configured",
  // The host's tools (docs/operating.md, "Host tools").
  /** Pausing and voiding are for a live show; a self-paced tournament has no shared clock to hold. */
  "live_show_only",
  /** The host's tools act on a tournament that is running, before its settlement begins. */
  "tournament_not_running",
  /** Only a question that went out (open or revealed) can be voided. */
  "question_not_opened",
  "question_not_found",
  /** The player is not in this tournament. */
  "participant_not_found",
  /** The host disqualified this player: no more answers. */
  "player_disqualified",
  // Identity verification (docs/identity-and-tax.md, "Identity").
  /** A withdrawal to a bank account before the player's identity is verified. */
  "identity_verification_required",
  /** The verification is still with the provider. */
  "identity_verification_pending",
  /** The provider asked for another try (its reason in the message). */
  "identity_verification_requires_input",
  /** The provider refused the identity: bank withdrawals stay closed until an operator reopens it. */
  "identity_verification_refused",
  /** Lifetime withdrawals passed IDENTITY_REVERIFY_LIFETIME_USD, or an operator asked: verify again. */
  "identity_reverification_required",
  /** The bank account holder name is not the verified legal name. */
  "identity_name_mismatch",
  /** A second account of a verified person: free play only. */
  "identity_duplicate_account",
  /** The date of birth comes from the verified document. */
  "date_of_birth_verified",
  "identity_already_verified",
  "identity_session_not_found",
  /** Neither Stripe nor the sandbox answers here (the sandbox only on loopback and SANDBOX_HOSTS). */
  "identity_not_configured",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every error response. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** A join refusal's toast title. */
  title?: string;
  /** A sign-in that needs (or got a wrong) second factor. */
  twoFactorRequired?: boolean;
  /** A sign-in that must come with a Turnstile token (bot_check_required). */
  botCheckRequired?: boolean;
  /** Every rule a question form broke (question_invalid). */
  reasons?: string[];
}
