// The Idempotency-Key of one confirm visit of a money request: the same on every retry of it
// (a double click, a press after a network error), a new one when `renew` starts a new visit.
import { useCallback, useState } from "react";
import { newIdempotencyKey } from "@/lib/api-client";

export function useIdempotencyKey(): [key: string, renew: () => void] {
  const [key, setKey] = useState(newIdempotencyKey);
  const renew = useCallback(() => setKey(newIdempotencyKey()), []);
  return [key, renew];
}
