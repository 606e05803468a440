import { useCallback, useEffect, useState } from "react";
import { FeaturedEvents } from "./featured-events";
import { useSearchParams } from "react-router";
import { Search, SearchX } from "lucide-react";
import type { TournamentListParams } from "@common/api/tournaments";
import { TIERS, tierLabel } from "@common/domain/levels";
import { SEARCH_DEBOUNCE_MS } from "@common/spec";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/cn";
import { useTournamentPages, type TournamentFilters } from "../api";
import { useCategories } from "@/lib/categories";
import { TournamentCard } from "./tournament-card";
import { CustomTournamentsEntry } from "../custom/custom-entry";

type Price = NonNullable<TournamentListParams["price"]>;
type Status = NonNullable<TournamentListParams["status"]>;

const STATUS_TABS = [
  { value: "all", label: "All Tournaments" },
  { value: "live", label: "Live Now" },
  { value: "upcoming", label: "Upcoming" },
  { value: "completed", label: "Completed" },
] as const;
const STATUSES: readonly Status[] = ["upcoming", "live", "completed"];
const PRICES: readonly Price[] = ["free", "paid", "premium"];
/** The level filter's choices: one per tier, named in the address by the tier's name. */
const LEVEL_CHOICES = TIERS.map((tier) => ({ value: tier.name.toLowerCase(), label: tierLabel(tier), tier }));

/** Filters live in the address, so the footer's ?status= and ?price= links and the back button work. */
function filtersFrom(params: URLSearchParams): TournamentFilters {
  const status = params.get("status");
  const price = params.get("price");
  const tier = LEVEL_CHOICES.find((c) => c.value === params.get("level"))?.tier;
  return {
    q: params.get("q")?.trim() || undefined,
    category: params.get("category") || undefined,
    minLevel: tier?.minLevel,
    maxLevel: tier?.maxLevel ?? undefined,
    price: PRICES.includes(price as Price) ? (price as Price) : undefined,
    status: STATUSES.includes(status as Status) ? (status as Status) : undefined,
  };
}

const selectClass =
  "h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring cursor-pointer";

export default function TournamentsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const { data: categories } = useCategories();
  const { data, isLoading, isError, error, refetch, isPlaceholderData, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useTournamentPages(filters);
  const shown = data?.pages.flatMap((p) => p.items) ?? [];
  const total = data?.pages[0]?.total ?? 0;

  const set = useCallback(
    (key: string, value: string | undefined) =>
      // From the latest address: a search settling after a filter changed must not undo the filter.
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clearFilters = () => setParams(new URLSearchParams(), { replace: true });
  const tab = filters.status ?? "all";

  // The box shows what is typed at once; the address (and so the request) follows once typing pauses.
  const addressText = params.get("q") ?? "";
  const [text, setText] = useState(addressText);
  const [seenAddressText, setSeenAddressText] = useState(addressText);
  if (addressText !== seenAddressText) {
    // Changed from elsewhere too (Clear filters, back button): the box follows the address.
    setSeenAddressText(addressText);
    setText(addressText);
  }
  useEffect(() => {
    if (text === addressText) return;
    const timer = setTimeout(() => set("q", text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, addressText, set]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold">Tournaments</h1>
      <p className="mt-1 text-muted-foreground">Find a tournament that fits your interests and level, then join before it starts.</p>
      <CustomTournamentsEntry />

      <FeaturedEvents className="mt-8" />

      <div className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr]">
        <div className="col-span-2 space-y-1.5 lg:col-span-1">
          <Label htmlFor="tournament-search">Search</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              id="tournament-search"
              type="search"
              placeholder="Search by title or description"
              className="pl-9"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-category">Category</Label>
          <select
            id="filter-category"
            className={selectClass}
            value={filters.category ?? ""}
            onChange={(e) => set("category", e.target.value)}
          >
            <option value="">All categories</option>
            {categories?.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-level">Level</Label>
          <select
            id="filter-level"
            className={selectClass}
            value={LEVEL_CHOICES.find((c) => c.tier.minLevel === filters.minLevel)?.value ?? ""}
            onChange={(e) => set("level", e.target.value)}
          >
            <option value="">All levels</option>
            {LEVEL_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-price">Price</Label>
          <select id="filter-price" className={selectClass} value={filters.price ?? ""} onChange={(e) => set("price", e.target.value)}>
            <option value="">All prices</option>
            <option value="free">Free</option>
            <option value="paid">Paid</option>
            <option value="premium">Premium ($20+)</option>
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <select id="filter-status" className={selectClass} value={filters.status ?? ""} onChange={(e) => set("status", e.target.value)}>
            <option value="">All statuses</option>
            <option value="upcoming">Upcoming</option>
            <option value="live">Live</option>
            <option value="completed">Completed</option>
          </select>
        </div>
      </div>

      <Tabs value={tab} onValueChange={(v) => set("status", v === "all" ? undefined : v)} className="mt-6">
        <TabsList aria-label="Tournament status">
          {STATUS_TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value={tab} className={cn("mt-6 transition-opacity", isPlaceholderData && "opacity-60")}>
          {isLoading ? (
            <div className="flex flex-col items-center gap-3 py-16 text-muted-foreground">
              <Spinner />
              <p>Loading tournaments...</p>
            </div>
          ) : isError ? (
            <div className="rounded-xl border border-border py-12 text-center">
              <p className="font-medium">Tournaments could not be loaded.</p>
              <p className="mt-1 text-sm text-muted-foreground">{error.message}</p>
              <Button variant="outline" className="mt-4" onClick={() => refetch()}>
                Try again
              </Button>
            </div>
          ) : shown.length === 0 ? (
            <div className="flex flex-col items-center rounded-xl border border-dashed border-border py-16 text-center">
              <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden />
              <p className="mt-3 font-medium">No tournaments found matching your filters.</p>
              <Button variant="outline" className="mt-4" onClick={clearFilters}>
                Clear filters
              </Button>
            </div>
          ) : (
            <>
              <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {shown.map((t) => (
                  <TournamentCard key={t.id} tournament={t} />
                ))}
              </div>
              <div className="mt-8 flex flex-col items-center gap-3">
                <p className="text-sm text-muted-foreground">
                  Showing {shown.length} of {total} tournaments
                </p>
                {hasNextPage && (
                  <Button variant="outline" disabled={isFetchingNextPage || isPlaceholderData} onClick={() => void fetchNextPage()}>
                    {isFetchingNextPage ? "Loading more..." : "Load more"}
                  </Button>
                )}
              </div>
            </>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
