// The tournament categories, used across the app (filters, the home page, marketing pages).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, read } from "./api-client";

export const CATEGORIES_KEY = ["categories"] as const;

export const categoriesQuery = () => queryOptions({ queryKey: CATEGORIES_KEY, queryFn: () => read(api.categories.$get()) });

export function useCategories() {
  return useQuery(categoriesQuery());
}
