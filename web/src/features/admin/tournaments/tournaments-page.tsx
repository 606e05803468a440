// /admin/tournaments: every tournament with its status, players, pool and format, filtered and
// searched on the server; a new one is created here (or, above the house-pool threshold, sent
// for a second operator's approval).
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { ADMIN_TOURNAMENT_KINDS, ADMIN_TOURNAMENT_STATUSES } from "@common/api/admin-tournaments";
import { ADMIN_TOURNAMENTS } from "@common/console-messages";
import { formatDollars } from "@common/domain/money";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { PageSpinner } from "@/components/ui/spinner";
import { useAdminTournaments, useCreateTournament } from "./api";
import { TournamentForm } from "./tournament-form";

/** The list's query as the screen keeps it: every filter as text, "" for none. */
type Filters = { q?: string; status?: string; format?: string; kind?: string; page?: string };

const FORMAT_LABEL = { self_paced: "Self-paced", live_show: "Live show" } as const;

export default function TournamentsPage() {
  const [filters, setFilters] = useState<Filters>({ kind: "standard", page: "1" });
  const [creating, setCreating] = useState(false);
  const list = useAdminTournaments(filters);
  const create = useCreateTournament();
  const navigate = useNavigate();
  const setFilter = (key: keyof Filters, value: string) => setFilters((f) => ({ ...f, [key]: value, page: "1" }));
  const page = Number(filters.page ?? 1);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Tournaments</h1>
        <Button onClick={() => setCreating((c) => !c)}>{creating ? "Close the form" : "New tournament"}</Button>
      </div>
      {creating && (
        <section aria-label="New tournament" className="rounded-lg border p-4">
          <TournamentForm
            submitLabel="Create tournament"
            pending={create.isPending}
            error={create.error}
            onSubmit={(input) =>
              create.mutate(input, {
                onSuccess: (result) => {
                  setCreating(false);
                  if ("approvalId" in result) toast.info(result.message);
                  else {
                    toast.success(ADMIN_TOURNAMENTS.created, result.title);
                    void navigate(`/admin/tournaments/${result.id}`);
                  }
                },
              })
            }
          />
        </section>
      )}
      <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
        <Input
          aria-label="Search by title"
          placeholder="Search by title"
          value={filters.q ?? ""}
          onChange={(e) => setFilter("q", e.target.value)}
        />
        <Select aria-label="Status" value={filters.status ?? ""} onChange={(e) => setFilter("status", e.target.value)}>
          <option value="">Any status</option>
          {ADMIN_TOURNAMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select aria-label="Format" value={filters.format ?? ""} onChange={(e) => setFilter("format", e.target.value)}>
          <option value="">Any format</option>
          <option value="self_paced">Self-paced</option>
          <option value="live_show">Live show</option>
        </Select>
        <Select aria-label="Kind" value={filters.kind ?? "standard"} onChange={(e) => setFilter("kind", e.target.value)}>
          {ADMIN_TOURNAMENT_KINDS.map((k) => (
            <option key={k} value={k}>
              {k === "standard" ? "Tournaments" : k === "all" ? "All kinds" : k.replace("_", " ")}
            </option>
          ))}
        </Select>
      </div>
      {list.isPending ? (
        <PageSpinner />
      ) : list.isError ? (
        <p role="alert" className="text-destructive">
          {errorMessage(list.error)}
        </p>
      ) : list.data.items.length === 0 ? (
        <p className="text-muted-foreground">No tournaments match these filters.</p>
      ) : (
        <ul aria-label="Tournaments" className="divide-y rounded-lg border">
          {list.data.items.map((t) => (
            <li key={t.id} className="flex flex-col gap-1 p-3 md:flex-row md:items-center md:justify-between">
              <div className="min-w-0">
                <Link to={`/admin/tournaments/${t.id}`} className="font-medium underline-offset-4 hover:underline">
                  {t.title}
                </Link>
                <p className="text-sm text-muted-foreground">
                  {t.categoryName} · {FORMAT_LABEL[t.format]} · starts {new Date(t.startTime).toLocaleString()}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Badge>{t.status}</Badge>
                {t.houseFunded && <Badge variant="secondary">house-funded</Badge>}
                <span>
                  {t.currentParticipants}/{t.maxParticipants ?? "∞"} players
                </span>
                <span>fee {t.isFree ? "free" : formatDollars(t.entryFee)}</span>
                <span>pool {formatDollars(t.prizePool)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.data && (list.data.nextPage !== null || page > 1) && (
        <div className="flex items-center gap-2">
          <Button variant="outline" disabled={page <= 1} onClick={() => setFilters((f) => ({ ...f, page: String(page - 1) }))}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {Math.max(1, Math.ceil(list.data.total / list.data.pageSize))}
          </span>
          <Button
            variant="outline"
            disabled={list.data.nextPage === null}
            onClick={() => setFilters((f) => ({ ...f, page: String(page + 1) }))}
          >
            Next
          </Button>
        </div>
      )}
    </div>
  );
}
