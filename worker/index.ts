import { app } from "./app";
import { runSchedule } from "./schedule/run-schedule";
import { deleteExpiredKeys } from "./money/idempotency";
import { sendDueReminders } from "./schedule/reminders";

export { TournamentRoom } from "./durable/tournament-room";
export { NotificationHub } from "./durable/notification-hub";

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runSchedule(env, controller.scheduledTime));
    // Requests forget their own user's expired idempotency keys; this forgets everyone else's.
    ctx.waitUntil(deleteExpiredKeys(env.DB, controller.scheduledTime));
    // "Remind me" on featured events: each reminder once, in its window (docs/featured-events.md).
    ctx.waitUntil(sendDueReminders(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
