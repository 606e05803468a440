import { app } from "./app";
import { runSchedule } from "./schedule/run-schedule";

export { TournamentRoom } from "./durable/tournament-room";
export { NotificationHub } from "./durable/notification-hub";

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runSchedule(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
