// The console's fair-play screen: cheat attempts and flagged results by tournament and player,
// each attempt marked reviewed with a resolution; held prizes to release or forfeit; frozen accounts.
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { formatDollars } from "@common/domain/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Loaded, Section } from "../components/section";
import { ConfirmWithNoteDialog } from "../components/confirm-note-dialog";
import { LinkedAccounts } from "./linked-accounts";
import { useFairPlay, useFrozenAccounts, useHeldPrizes, useReviewCheatAttempt, useReviewPrize, type FairPlayFilters } from "./api";

const when = (iso: string) => new Date(iso).toLocaleString();

const playerLink = (userId: number, username: string) => (
  <Link to={`/admin/players/${userId}`} className="font-medium text-primary underline-offset-4 hover:underline">
    {username}
  </Link>
);

function Filters({ onApply }: { onApply: (f: FairPlayFilters) => void }) {
  const [tournamentId, setTournamentId] = useState("");
  const [userId, setUserId] = useState("");
  const [review, setReview] = useState<FairPlayFilters["review"]>("all");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ tournamentId: tournamentId.trim(), userId: userId.trim(), review });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Filters">
      <div className="space-y-1">
        <Label htmlFor="fp-tournament">Tournament id</Label>
        <Input
          id="fp-tournament"
          inputMode="numeric"
          className="w-32"
          value={tournamentId}
          onChange={(e) => setTournamentId(e.target.value)}
        />
      </div>
      <div className="space-y-1">
        <Label htmlFor="fp-player">Player id</Label>
        <Input id="fp-player" inputMode="numeric" className="w-32" value={userId} onChange={(e) => setUserId(e.target.value)} />
      </div>
      <div className="space-y-1">
        <Label htmlFor="fp-review">Review</Label>
        <Select id="fp-review" value={review} onChange={(e) => setReview(e.target.value as FairPlayFilters["review"])}>
          <option value="all">All attempts</option>
          <option value="open">Not reviewed</option>
          <option value="reviewed">Reviewed</option>
        </Select>
      </div>
      <Button type="submit" variant="outline">
        Apply filters
      </Button>
    </form>
  );
}

export default function FairPlayScreen() {
  const [filters, setFilters] = useState<FairPlayFilters>({ tournamentId: "", userId: "", review: "all" });
  const overview = useFairPlay(filters);
  const held = useHeldPrizes();
  const frozen = useFrozenAccounts();
  const reviewAttempt = useReviewCheatAttempt();
  const reviewPrize = useReviewPrize();
  const [reviewing, setReviewing] = useState<number | null>(null);
  const [forfeiting, setForfeiting] = useState<number | null>(null);
  const [releasing, setReleasing] = useState<number | null>(null);

  const release = (id: number) => {
    setReleasing(id);
    reviewPrize.mutate(
      { id, outcome: "release" },
      {
        onSuccess: (r) =>
          r && "approvalId" in r
            ? toast.success("Waits for a second operator", r.message)
            : toast.success("Prize released", "The player has been told and the money is in their balance."),
        onError: (e) => toast.error("Could not release the prize", errorMessage(e)),
        onSettled: () => setReleasing(null),
      },
    );
  };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Fair play</h1>
      <Filters onApply={setFilters} />

      <Section title="Cheat attempts">
        <Loaded query={overview} empty={(d) => d.cheatAttempts.length === 0}>
          {(d) => (
            <ul className="divide-y divide-border">
              {d.cheatAttempts.map((a) => (
                <li key={a.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
                  <div className="min-w-0 space-y-1">
                    <p className="break-words">{a.reason}</p>
                    {a.suppressed > 0 && (
                      <p className="text-sm font-medium">
                        And {a.suppressed} more refused {a.suppressed === 1 ? "answer" : "answers"} after it, counted but not listed
                      </p>
                    )}
                    <p className="text-sm text-muted-foreground">
                      {playerLink(a.userId, a.username)} · {a.tournamentTitle} (#{a.tournamentId}) · {when(a.timestamp)}
                    </p>
                    {a.reviewed && <p className="text-sm">Resolution: {a.resolution}</p>}
                  </div>
                  {a.reviewed ? (
                    <Badge variant="secondary">Reviewed</Badge>
                  ) : (
                    <Button size="sm" variant="outline" aria-label={`Review attempt ${a.id}`} onClick={() => setReviewing(a.id)}>
                      Review
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </Section>

      <Section title="Flagged results">
        <Loaded query={overview} empty={(d) => d.flagged.length === 0}>
          {(d) => (
            <ul className="divide-y divide-border">
              {d.flagged.map((f) => (
                <li key={`${f.tournamentId}:${f.userId}`} className="space-y-1 py-2">
                  <p className="text-sm">
                    {playerLink(f.userId, f.username)} · {f.tournamentTitle} (#{f.tournamentId}) · rank {f.rank ?? "–"} · prize{" "}
                    {formatDollars(f.prize)} <Badge variant="outline">{f.prizeStatus}</Badge>
                  </p>
                  <ul className="list-disc pl-5 text-sm text-muted-foreground">
                    {f.flags.map((flag, i) => (
                      <li key={i}>{flag.detail}</li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </Section>

      <Section title="Held prizes">
        <Loaded query={held} empty={(d) => d.length === 0}>
          {(d) => (
            <ul className="divide-y divide-border">
              {d.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0 text-sm">
                    <p>
                      {playerLink(p.userId, p.username)} · {p.tournamentTitle} ·{" "}
                      <span className="font-semibold">{formatDollars(p.amount)}</span>
                    </p>
                    <p className="text-muted-foreground">{p.flags.map((f) => f.detail).join("; ")}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button size="sm" aria-label={`Release prize ${p.id}`} disabled={releasing === p.id} onClick={() => release(p.id)}>
                      Release
                    </Button>
                    <Button size="sm" variant="destructive" aria-label={`Forfeit prize ${p.id}`} onClick={() => setForfeiting(p.id)}>
                      Forfeit
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </Section>

      <LinkedAccounts />

      <Section title="Frozen accounts">
        <Loaded query={frozen} empty={(d) => d.length === 0}>
          {(d) => (
            <ul className="divide-y divide-border">
              {d.map((a) => (
                <li key={a.userId} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                  <span>{playerLink(a.userId, a.username)}</span>
                  <span>
                    owes <span className="font-semibold">{formatDollars(a.owed)}</span> since {when(a.since)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </Section>

      <ConfirmWithNoteDialog
        open={reviewing !== null}
        onOpenChange={(o) => !o && setReviewing(null)}
        title="Review cheat attempt"
        description="Write what came of it (a warning, a forfeit, nothing). Other operators see it."
        noteRequired
        noteLabel="Resolution"
        confirmLabel="Mark reviewed"
        pending={reviewAttempt.isPending}
        onConfirm={(resolution) =>
          reviewAttempt.mutate(
            { id: reviewing!, resolution },
            {
              onSuccess: () => {
                toast.success("Cheat attempt marked reviewed");
                setReviewing(null);
              },
              onError: (e) => toast.error("Could not mark it reviewed", errorMessage(e)),
            },
          )
        }
      />
      <ConfirmWithNoteDialog
        open={forfeiting !== null}
        onOpenChange={(o) => !o && setForfeiting(null)}
        title="Forfeit prize"
        description="The prize goes to the house ledger and the player is told it was forfeited after review."
        noteRequired
        noteLabel="Reason"
        confirmLabel="Forfeit"
        destructive
        pending={reviewPrize.isPending}
        onConfirm={(reason) =>
          reviewPrize.mutate(
            { id: forfeiting!, outcome: "forfeit", reason },
            {
              onSuccess: () => {
                toast.success("Prize forfeited");
                setForfeiting(null);
              },
              onError: (e) => toast.error("Could not forfeit the prize", errorMessage(e)),
            },
          )
        }
      />
    </div>
  );
}
