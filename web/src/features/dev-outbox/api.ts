import { useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

/** GET /api/dev/outbox: a local server's kept mail (404 anywhere else). Refetched on every visit. */
export const useOutbox = () =>
  useQuery({ queryKey: ["dev", "outbox"], queryFn: () => read(api.dev.outbox.$get()), refetchOnMount: "always", retry: false });
