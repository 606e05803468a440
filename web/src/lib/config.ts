import { useQuery } from "@tanstack/react-query";
import type { PublicConfig } from "@common/api/money";

/** This deployment's public settings: payment provider, deposit limits, support address. */
export const usePublicConfig = () => useQuery<PublicConfig>({ queryKey: ["/api/config"] });
