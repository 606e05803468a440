import { useEffect, useState } from "react";
import { TIMER_TICK_MS } from "@common/spec";

/**
 * Milliseconds left until `deadline` (local clock), redrawn every TIMER_TICK_MS while `running`.
 * When it stops, the figure stays where it was.
 */
export function useQuestionTimer(deadline: number | null, running: boolean): number {
  const [tick, setTick] = useState(() => ({ deadline, now: Date.now() }));

  useEffect(() => {
    if (deadline == null || !running) return;
    setTick({ deadline, now: Date.now() });
    const timer = setInterval(() => {
      const now = Date.now();
      setTick({ deadline, now });
      if (now >= deadline) clearInterval(timer);
    }, TIMER_TICK_MS);
    return () => clearInterval(timer);
  }, [deadline, running]);

  if (deadline == null) return 0;
  // A new deadline counts from now, not from the last tick of the previous one.
  const now = tick.deadline === deadline ? tick.now : Date.now();
  return Math.max(0, deadline - now);
}
