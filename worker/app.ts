// The HTTP surface: one Hono app, one sub-app per resource mounted once at the path it serves
// (so a URL names its file), one error path. `AppType` types the web app's client
// (docs/decisions/006-typed-contract.md).
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ApiErrorBody } from "../common/api/errors";
import { ERRORS } from "../common/messages";
import { describeError, HttpError, isUniqueViolation } from "./http/errors";
import { apiSecurityHeaders, limitBody, loadSession, noStore, sameOriginJson } from "./http/middleware";
import { refuseInsecureSecrets } from "./http/insecure-secrets";
import { MAX_JSON_BODY_BYTES, MAX_WEBHOOK_BODY_BYTES } from "../common/spec";
import type { AppEnv } from "./http/app-env";
import { healthRoutes } from "./routes/health";
import { wsRoutes } from "./routes/ws";
import { authRoutes } from "./routes/auth";
import { stepUpRoutes } from "./routes/auth-step-up";
import { userRoutes } from "./routes/user";
import { sessionRoutes } from "./routes/session";
import { userTwoFactorRoutes } from "./routes/user-2fa";
import { userTournamentRoutes } from "./routes/user-tournaments";
import { userStatsRoutes } from "./routes/user-stats";
import { tournamentRoutes } from "./routes/tournaments";
import { customTournamentRoutes } from "./routes/custom-tournaments";
import { categoryRoutes } from "./routes/categories";
import { statsRoutes } from "./routes/stats";
import { leaderboardRoutes } from "./routes/leaderboard";
import { userProfileRoutes } from "./routes/users";
import { notificationRoutes } from "./routes/notifications";
import { configRoutes } from "./routes/config";
import { paymentRoutes } from "./routes/payments";
import { webhookRoutes } from "./routes/webhooks";
import { withdrawalRoutes } from "./routes/withdrawal";
import { walletRoutes } from "./routes/wallet";
import { adminFrozenAccountRoutes } from "./routes/admin-frozen-accounts";
import { adminPayoutRoutes } from "./routes/admin-payouts";
import { adminPayoutBatchRoutes } from "./routes/admin-payout-batches";
import { adminTournamentRoutes } from "./routes/admin-tournaments";
import { featuredRoutes } from "./routes/featured";
import { adminQuestionRoutes } from "./routes/admin-questions";
import { adminQuestionReportRoutes } from "./routes/admin-question-reports";
import { questionReportRoutes } from "./routes/question-reports";
import { adminHouseLedgerRoutes } from "./routes/admin-house-ledger";
import { receiptRoutes } from "./routes/receipts";
import { adminHeldPrizeRoutes } from "./routes/admin-held-prizes";
import { adminIntegrityRoutes } from "./routes/admin-integrity";
import { authEmailRoutes } from "./routes/auth-email";
import { userEmailRoutes } from "./routes/user-email";
import { devOutboxRoutes } from "./routes/dev-outbox";
import { userResponsiblePlayRoutes } from "./routes/user-responsible-play";
import { userDateOfBirthRoutes } from "./routes/user-date-of-birth";
import { identityRoutes } from "./routes/identity";
import { adminIdentityRoutes } from "./routes/admin-identity";
import { adminApprovalRoutes } from "./routes/admin-approvals";
import { adminOverviewRoutes } from "./routes/admin-overview";
import { adminAuditRoutes } from "./routes/admin-audit";
import { adminUserRoutes } from "./routes/admin-users";
import { adminFairPlayRoutes } from "./routes/admin-fair-play";
import { adminCheatAttemptRoutes } from "./routes/admin-cheat-attempts";
import { userTaxFormRoutes } from "./routes/user-tax-form";
import { adminTaxRoutes } from "./routes/admin-tax";
import { legalRoutes } from "./routes/legal";
import { userTermsRoutes } from "./routes/user-terms";
import { userDataExportRoutes } from "./routes/user-data-export";

/**
 * Everything under /api (security headers come from the app, below): a deployment with an example
 * secret refused, body limits, CSRF defence and the session first, then one sub-app per resource.
 */
const api = new Hono<AppEnv>()
  .use(refuseInsecureSecrets)
  // Stripe's events are small; everything else is JSON up to an avatar's size.
  .use("/webhooks/*", limitBody(MAX_WEBHOOK_BODY_BYTES))
  .use(limitBody(MAX_JSON_BODY_BYTES), sameOriginJson, loadSession)
  // Mounted at /api itself, each because its URLs share no prefix: auth (/register, /login,
  // /logout) and payments (/create-payment-intent, /payment-intent, /sandbox/confirm-payment,
  // /deposit/confirm).
  .route("/", authRoutes)
  .route("/", paymentRoutes)
  .route("/auth/step-up", stepUpRoutes)
  .route("/session", sessionRoutes)
  .route("/user", userRoutes)
  .route("/user/2fa", userTwoFactorRoutes)
  .route("/user/email", userEmailRoutes)
  // The mailed links (verify-email, forgot-password, reset-password); auth-email.ts, as auth.ts already serves /.
  .route("/auth", authEmailRoutes)
  .route("/dev/outbox", devOutboxRoutes)
  .route("/user/tournaments", userTournamentRoutes)
  .route("/user/stats", userStatsRoutes)
  .route("/user/responsible-play", userResponsiblePlayRoutes)
  .route("/user/date-of-birth", userDateOfBirthRoutes)
  .route("/user/tax-form", userTaxFormRoutes)
  // Before the tournaments' routes: /tournaments/featured is not a tournament id.
  .route("/tournaments", featuredRoutes)
  // Before the public routes: /tournaments/custom is not a tournament id.
  .route("/tournaments", customTournamentRoutes)
  .route("/user/terms", userTermsRoutes)
  .route("/user/data-export", userDataExportRoutes)
  .route("/legal", legalRoutes)
  .route("/identity", identityRoutes)
  .route("/tournaments", tournamentRoutes)
  .route("/categories", categoryRoutes)
  .route("/stats", statsRoutes)
  .route("/leaderboard", leaderboardRoutes)
  .route("/users", userProfileRoutes)
  .route("/notifications", notificationRoutes)
  .route("/config", configRoutes)
  .route("/webhooks", webhookRoutes)
  .route("/withdrawal", withdrawalRoutes)
  .route("/wallet", walletRoutes)
  .route("/receipts", receiptRoutes)
  .use("/admin/*", noStore)
  .route("/admin/payouts", adminPayoutRoutes)
  .route("/admin/payout-batches", adminPayoutBatchRoutes)
  .route("/admin/tournaments", adminTournamentRoutes)
  .route("/admin/questions", adminQuestionRoutes)
  .route("/admin/question-reports", adminQuestionReportRoutes)
  .route("/questions", questionReportRoutes)
  .route("/admin/house-ledger", adminHouseLedgerRoutes)
  .route("/admin/held-prizes", adminHeldPrizeRoutes)
  .route("/admin/frozen-accounts", adminFrozenAccountRoutes)
  .route("/admin/approvals", adminApprovalRoutes)
  .route("/admin/overview", adminOverviewRoutes)
  .route("/admin/audit", adminAuditRoutes)
  .route("/admin/fair-play", adminFairPlayRoutes)
  .route("/admin/cheat-attempts", adminCheatAttemptRoutes)
  .route("/admin/tax", adminTaxRoutes)
  // Before the integrity routes, which also answer under /admin/users (/:id/integrity).
  .route("/admin/users", adminUserRoutes)
  .route("/admin/identity", adminIdentityRoutes)
  // Mounted at /admin: its reports hang off two resources (/tournaments/:id/integrity,
  // /users/:id/integrity), so each of its routes carries the operators' guard itself.
  .route("/admin", adminIntegrityRoutes);

export const app = new Hono<AppEnv>()
  // Every /api answer, /api/health and the 404 included, carries the security headers.
  .use("/api/*", apiSecurityHeaders)
  // Ahead of /api's middleware: liveness needs no session, and /ws (outside /api) reads its own.
  .route("/api/health", healthRoutes)
  .route("/ws", wsRoutes)
  .route("/api", api);

/** Every endpoint with its inputs and responses, for `hc<AppType>`. */
export type AppType = typeof app;

app.all("/api/*", (c) => c.json({ code: "not_found", message: "Not found" } satisfies ApiErrorBody, 404));

app.onError((err, c) => {
  if (err instanceof HttpError) return c.json(err.body, err.status);
  if (err instanceof HTTPException) {
    return c.json(
      { code: err.status >= 500 ? "internal" : "invalid_request", message: err.message || "Request failed" } satisfies ApiErrorBody,
      err.status,
    );
  }
  // Routes that know the field answer a race with their own code; any other clash is still the client's 409.
  if (isUniqueViolation(err)) return c.json({ code: "conflict", message: ERRORS.conflict } satisfies ApiErrorBody, 409);
  // Never the error object itself: a failed query's message carries its bound parameters.
  console.error("unhandled error", c.req.method, new URL(c.req.url).pathname, describeError(err));
  return c.json({ code: "internal", message: ERRORS.internal } satisfies ApiErrorBody, 500);
});
