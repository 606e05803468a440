// The player's identity verification (docs/identity-and-tax.md): read by the profile's Identity
// tab and by the withdrawal page, so it lives here rather than in either feature.
import { useQuery } from "@tanstack/react-query";
import { api, read } from "./api-client";

export const IDENTITY_KEY = ["me", "identity"] as const;

export const useIdentity = () => useQuery({ queryKey: IDENTITY_KEY, queryFn: () => read(api.identity.$get()), refetchOnMount: "always" });
