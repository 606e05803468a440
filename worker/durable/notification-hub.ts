import { DurableObject } from "cloudflare:workers";

/** Holds signed-in users' /ws sockets and delivers notifications. */
export class NotificationHub extends DurableObject<Env> {}
