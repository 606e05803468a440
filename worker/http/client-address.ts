// The client's network address as every per-address throttle counts it. One IPv6 subscriber
// usually holds a whole /64 (often more) and can pick any address in it for each request, so an
// IPv6 address counts as its /64; an IPv4 address counts whole. An IPv4 address written as
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is that IPv4 address, so it shares the same count.

/** The address Cloudflare saw the request come from, or null (local runs without the header). */
export const clientIp = (req: Request): string | null => req.headers.get("cf-connecting-ip");

/** Cloudflare's continent code of the request (NA, EU, ...: request.cf.continent), or null (local runs, unknown). */
export function continentOf(req: Request): string | null {
  const continent = (req.cf as { continent?: unknown } | undefined)?.continent;
  return typeof continent === "string" && /^[A-Z]{2}$/.test(continent) ? continent : null;
}

/** The 8 groups of an IPv6 address (zone id dropped, an embedded dotted IPv4 tail expanded), or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  let s = text.trim().toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  // A dotted IPv4 tail (::ffff:1.2.3.4) is the last two groups.
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (dotted) {
    const bytes = dotted.slice(2, 6).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    s = `${dotted[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The key a per-address throttle counts `ip` under: "a.b.c.d" for IPv4 (also when written as
 * IPv4-mapped IPv6), "g0:g1:g2:g3::/64" (lower-case hex, no leading zeros) for any other IPv6
 * address, and "local" when the request carries no address. Anything unparseable counts as itself.
 */
export function addressKey(ip: string | null | undefined): string {
  if (!ip) return "local";
  const groups = ipv6Groups(ip);
  if (!groups) return ip.trim();
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** This request's throttle key (addressKey of cf-connecting-ip). */
export const clientAddressKey = (req: Request) => addressKey(clientIp(req));
