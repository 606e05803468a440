import { useEffect, useState } from "react";
import { COUNTDOWN_REFRESH_MS } from "@common/spec";

const MINUTE_MS = 60_000;
/** setTimeout fires at once for delays above 2^31 - 1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** "Starting in 2d 3h" / "1h 5m" / "12m"; "Starting now" at or after the start. */
export function countdownLabel(msLeft: number): string {
  if (msLeft <= 0) return "Starting now";
  const totalMinutes = Math.ceil(msLeft / MINUTE_MS);
  const days = Math.floor(totalMinutes / (24 * 60));
  const hours = Math.floor((totalMinutes % (24 * 60)) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `Starting in ${days}d ${hours}h`;
  if (hours > 0) return `Starting in ${hours}h ${minutes}m`;
  return `Starting in ${minutes}m`;
}

/**
 * Time left until `target`, re-rendered every COUNTDOWN_REFRESH_MS, and once more exactly at the
 * target so `isDue` flips on time rather than up to one refresh late.
 */
export function useCountdown(target: string | number | Date | null | undefined, refreshMs: number = COUNTDOWN_REFRESH_MS) {
  const targetMs = target == null ? null : new Date(target).getTime();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (targetMs == null) return;
    setNow(Date.now());
    const left = targetMs - Date.now();
    if (left <= 0) return;
    const interval = setInterval(() => setNow(Date.now()), refreshMs);
    const atTarget =
      left <= MAX_TIMEOUT_MS
        ? setTimeout(() => {
            clearInterval(interval);
            setNow(Date.now());
          }, left)
        : undefined;
    return () => {
      clearInterval(interval);
      clearTimeout(atTarget);
    };
  }, [targetMs, refreshMs]);

  const msLeft = targetMs == null ? 0 : Math.max(0, targetMs - now);
  return { msLeft, isDue: targetMs != null && now >= targetMs, label: countdownLabel(msLeft) };
}
