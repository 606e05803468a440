import type { Db } from "../db/client";
import type { SessionInfo, SessionUser } from "../auth/session";

/** Hono's generic environment for every route: bindings plus what middleware puts on the context. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Db;
    /** The signed-in user, or null; set for every /api request. */
    user: SessionUser | null;
    /** The session behind the cookie, or null when signed out. */
    session: SessionInfo | null;
  };
}
