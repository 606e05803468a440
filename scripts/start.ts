// `npm start`: everything on http://localhost:8787, offline, no account needed.
import { startDevServer } from "./dev-server";

const port = Number(process.env.PORT ?? 8787);
const server = await startDevServer({ port, demo: true });
console.log(`\nTrivia Arena is running on ${server.url}  (Ctrl+C to stop)`);
// Without RESEND_API_KEY in .dev.vars, account mail (verification and reset links, notices) is kept locally.
console.log(`Mail it would send (verification and password reset links): ${server.url}/dev/outbox\n`);

// wrangler dev does not fire Cron Triggers by itself; run the schedule as production would.
const timer = setInterval(() => server.runSchedule().catch((e) => console.error(String(e))), 5 * 60_000);
const stop = async () => {
  clearInterval(timer);
  await server.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
