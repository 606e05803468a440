// Where a join comes from, for the collusion check (docs/fair-play.md): a first-party device
// cookie and the network address, each stored only as a keyed hash.
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { randomToken } from "../auth/bytes";
import { isLocalhost } from "../auth/session";
import { identityHash } from "./receipts";
import type { AppEnv } from "../http/app-env";

const DEVICE_COOKIE = "device";
// Browsers cap cookie lifetimes at 400 days.
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** The hashes of the caller's device and network; a browser without the device cookie gets one now. */
export function joinIdentity(c: Context<AppEnv>): { deviceHash: string; networkHash: string | null } {
  let device = getCookie(c, DEVICE_COOKIE);
  if (!device || !/^[A-Za-z0-9_-]{16,64}$/.test(device)) {
    device = randomToken(18);
    setCookie(c, DEVICE_COOKIE, device, {
      httpOnly: true,
      sameSite: "Lax",
      secure: !isLocalhost(c.req.url),
      path: "/",
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
  }
  const address = c.req.header("cf-connecting-ip");
  return { deviceHash: identityHash(c.env, "device", device), networkHash: address ? identityHash(c.env, "network", address) : null };
}
