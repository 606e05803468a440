// Where a player was going when the sign-in page was put in the way: /auth?next=<path>, and back
// there once signed in. Only a path on this site is followed; anything else (another origin,
// "//host", "/\host", a scheme) goes home, so the parameter cannot send anyone off-site.

export const RETURN_PARAM = "next";

/** The sign-in page's address that comes back to `path` (a path with its query and hash). */
export function signInFor(path: string): string {
  const back = safeReturnPath(path);
  return back === "/" ? "/auth" : `/auth?${RETURN_PARAM}=${encodeURIComponent(back)}`;
}

const BASE = "https://return-to.invalid";

/** `raw` when it is a same-origin relative path (not the sign-in page itself), else "/". */
export function safeReturnPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/";
  // Control characters (tabs and newlines are dropped by URL parsing, so "/\t/evil.com" would read "//evil.com").
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return "/";
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE || url.pathname === "/auth" || url.pathname.startsWith("/auth/")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
