import { app } from "./app";

export { TournamentRoom } from "./durable/tournament-room";
export { NotificationHub } from "./durable/notification-hub";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
