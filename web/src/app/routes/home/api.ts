import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export const HERO_FIGURES_KEY = ["stats"] as const;

/** The hero's real figures: prizes paid (cents) and tournaments completed (GET /api/stats, cached briefly by the Worker). */
export const heroFiguresQuery = () => queryOptions({ queryKey: HERO_FIGURES_KEY, queryFn: () => read(api.stats.$get()) });
export const useHeroFigures = () => useQuery(heroFiguresQuery());
