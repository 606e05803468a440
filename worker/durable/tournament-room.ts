import { DurableObject } from "cloudflare:workers";

/** One per tournament: the single writer of its live state. */
export class TournamentRoom extends DurableObject<Env> {}
