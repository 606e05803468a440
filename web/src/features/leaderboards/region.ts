import type { GlobalLeaderboardEntry } from "@common/api/tournaments";

/** The region a location names: the country after the last comma of "City, Country". */
export function regionOf(location: string | null | undefined): string | null {
  const part = location?.split(",").pop()?.trim();
  return part ? part : null;
}

/** Entries from that region (case-insensitive); players ranked only globally have region "Global". */
export const inRegion = (entries: GlobalLeaderboardEntry[], region: string) =>
  entries.filter((e) => e.region.trim().toLowerCase() === region.toLowerCase());
