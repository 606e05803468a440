// The HTTP surface: one Hono app, one sub-app per resource, one error path.
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ERRORS } from "../common/messages";
import { describeError, HttpError, isUniqueViolation } from "./http/errors";
import { loadSession, sameOriginJson } from "./http/middleware";
import type { AppEnv } from "./http/app-env";
import { authRoutes } from "./routes/auth";
import { userRoutes } from "./routes/user";
import { categoryRoutes } from "./routes/categories";
import { leaderboardRoutes } from "./routes/leaderboard";
import { userProfileRoutes } from "./routes/users";
import { notificationRoutes, notificationSocketRoutes } from "./routes/notifications";
import { tournamentRoutes } from "./routes/tournaments";
import { userPlayRoutes } from "./routes/user-play";
import { accountSecurityRoutes } from "./routes/account-security";
import { adminRoutes } from "./routes/admin";
import { adminTournamentRoutes } from "./routes/admin-tournaments";
import { adminHouseLedgerRoutes } from "./routes/admin-house-ledger";
import { paymentRoutes } from "./routes/payments";
import { withdrawalRoutes } from "./routes/withdrawals";

export const app = new Hono<AppEnv>();

/** Liveness for the local runner and monitors; touches D1 so a broken binding shows. */
app.get("/api/health", async (c) => {
  await c.env.DB.prepare("SELECT 1").first();
  return c.json({ ok: true });
});

app.use("/api/*", sameOriginJson, loadSession);

app
  .basePath("/api")
  .route("/", authRoutes)
  .route("/user", userRoutes)
  .route("/user", userPlayRoutes)
  .route("/tournaments", tournamentRoutes)
  .route("/categories", categoryRoutes)
  .route("/leaderboard", leaderboardRoutes)
  .route("/users", userProfileRoutes)
  .route("/notifications", notificationRoutes)
  .route("/user", accountSecurityRoutes)
  .route("/", paymentRoutes)
  .route("/withdrawal", withdrawalRoutes)
  .route("/admin/tournaments", adminTournamentRoutes)
  .route("/admin/house-ledger", adminHouseLedgerRoutes)
  .route("/admin", adminRoutes);

app.route("/", notificationSocketRoutes);

app.all("/api/*", (c) => c.json({ message: "Not found" }, 404));

app.onError((err, c) => {
  if (err instanceof HttpError) return c.json({ message: err.message, ...err.details }, err.status);
  if (err instanceof HTTPException) return c.json({ message: err.message || "Request failed" }, err.status);
  // Routes that know the field answer a race with their own message; any other clash is still the client's 409.
  if (isUniqueViolation(err)) return c.json({ message: ERRORS.conflict }, 409);
  // Never the error object itself: a failed query's message carries its bound parameters.
  console.error("unhandled error", c.req.method, new URL(c.req.url).pathname, describeError(err));
  return c.json({ message: ERRORS.internal }, 500);
});

