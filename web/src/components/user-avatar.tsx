import { cn } from "@/lib/cn";

/** Up to two letters from the username ("quiz_master" -> "QM", "bob" -> "BO"). */
export function initials(username: string): string {
  const parts = username.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const letters = parts.length >= 2 ? parts[0]![0]! + parts[1]![0]! : username.replace(/[^A-Za-z0-9]/g, "").slice(0, 2);
  return (letters || "?").toUpperCase();
}

// Each dark enough for white initials at 4.5:1 (WCAG AA for small text).
const COLOURS = [
  "bg-violet-600",
  "bg-indigo-600",
  "bg-sky-700",
  "bg-emerald-700",
  "bg-amber-700",
  "bg-rose-700",
  "bg-fuchsia-700",
  "bg-teal-700",
];
const colourFor = (name: string) => COLOURS[[...name].reduce((a, c) => a + c.charCodeAt(0), 0) % COLOURS.length];

/** The user's uploaded picture, or initials drawn locally (no outside avatar service). */
export function UserAvatar({ user, className }: { user: { username: string; avatar?: string | null }; className?: string }) {
  if (user.avatar)
    return <img src={user.avatar} alt={`${user.username}'s avatar`} className={cn("rounded-full object-cover", className)} />;
  return (
    <span
      aria-label={`${user.username}'s avatar`}
      role="img"
      className={cn(
        "inline-flex shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white",
        colourFor(user.username),
        className,
      )}
    >
      {initials(user.username)}
    </span>
  );
}
