import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, read } from "./api-client";

export const CONFIG_KEY = ["config"] as const;

export const configQuery = () => queryOptions({ queryKey: CONFIG_KEY, queryFn: () => read(api.config.$get()) });

/** This deployment's public settings: payment provider, deposit limits, support address. */
export const usePublicConfig = () => useQuery(configQuery());
