import { useState } from "react";

/**
 * True from the first render in which `on` is true, and from then on: a lazily loaded part (a
 * dialog) is fetched when it is first needed and then stays mounted, as if it had always been.
 */
export function useLatch(on: boolean): boolean {
  const [latched, setLatched] = useState(on);
  if (on && !latched) setLatched(true);
  return latched || on;
}
