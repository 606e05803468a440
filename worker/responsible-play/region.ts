// Where a request comes from, for the region and age rules. Cloudflare's edge puts the country
// and subdivision on request.cf; a local run has no edge, so on a loopback host only the
// dev-region cookie stands in for it. Production hosts are never loopback, so there the cookie
// is ignored and only the edge decides.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { parseRegion, type Region } from "../../common/domain/responsible-play";
import { DEV_REGION_COOKIE } from "../../common/spec";
import { isLocalhost } from "../auth/session";

export function requestRegion(c: Context): Region | null {
  if (isLocalhost(c.req.url)) {
    const override = getCookie(c, DEV_REGION_COOKIE);
    if (override) return parseRegion(override);
  }
  const cf = c.req.raw.cf as { country?: unknown; regionCode?: unknown } | undefined;
  // Tor ("T1") and unknown ("XX") pass through as they are, so an operator can bar them too.
  if (typeof cf?.country !== "string" || cf.country === "") return null;
  const region = typeof cf.regionCode === "string" && cf.regionCode !== "" ? `${cf.country}-${cf.regionCode}` : cf.country;
  return parseRegion(region);
}
