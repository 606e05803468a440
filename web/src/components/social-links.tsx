import { ExternalLink } from "lucide-react";
import type { SocialLinks } from "@common/api/accounts";
import { cn } from "@/lib/cn";

export const SOCIAL_NETWORKS = [
  { key: "twitter", label: "Twitter", base: "https://twitter.com/" },
  { key: "facebook", label: "Facebook", base: "https://facebook.com/" },
  { key: "instagram", label: "Instagram", base: "https://instagram.com/" },
  { key: "linkedin", label: "LinkedIn", base: "https://linkedin.com/in/" },
  { key: "github", label: "GitHub", base: "https://github.com/" },
] as const;

/**
 * A link as the player typed it: a full http(s) address, a bare domain path or a handle.
 * Anything that does not become an http(s) URL (javascript:, data:…) yields null.
 */
export function socialUrl(base: string, value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  const candidate = /^https?:\/\//i.test(v) ? v : /^[\w-]+(\.[\w-]+)+\//.test(v) ? `https://${v}` : `${base}${v.replace(/^@/, "")}`;
  try {
    const url = new URL(candidate);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Icon links to the filled-in social profiles; nothing when none is filled in. */
export function SocialLinkList({ links, className }: { links: SocialLinks; className?: string }) {
  const items = SOCIAL_NETWORKS.map((n) => ({ ...n, href: socialUrl(n.base, links[n.key]) })).filter((n) => n.href);
  if (items.length === 0) return null;
  return (
    <ul className={cn("flex flex-wrap gap-2", className)} aria-label="Social profiles">
      {items.map(({ key, label, href }) => (
        <li key={key}>
          <a
            href={href!}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="inline-flex items-center gap-1.5 rounded-full border border-border px-3 py-1 text-xs font-medium text-muted-foreground hover:text-foreground"
          >
            {label}
            <ExternalLink className="h-3 w-3" aria-hidden />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
