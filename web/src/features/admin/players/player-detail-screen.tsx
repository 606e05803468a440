// A player's file in the console: profile and money state, suspension and ban (with a note),
// limits and exclusions (read only), identity, the legal documents accepted, fair-play record,
// paged ledger, sessions to revoke, and a manual balance adjustment that waits for a second operator.
import { useState, type FormEvent } from "react";
import { Link, useParams } from "react-router";
import type { ModerationAction } from "@common/api/console-players";
import { formatDollars } from "@common/domain/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { PageSpinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Loaded, Section } from "../components/section";
import { ConfirmWithNoteDialog } from "../components/confirm-note-dialog";
import {
  useModerate,
  usePlayer,
  usePlayerIntegrity,
  usePlayerLedger,
  usePlayerSessions,
  useRequestAdjustment,
  useRevokeSessions,
} from "./api";
import { TRANSACTION_TYPE_LABEL } from "@/features/wallet/transaction-labels";
import { IdentityRecord } from "./identity-record";
import { TermsRecord } from "./terms-record";

const when = (iso: string) => new Date(iso).toLocaleString();

const LIMIT_LABEL: Record<string, string> = {
  deposit_daily: "Deposits per day",
  deposit_weekly: "Deposits per week",
  deposit_monthly: "Deposits per month",
  entry_fees_daily: "Entry fees per day",
  entry_fees_weekly: "Entry fees per week",
  entry_fees_monthly: "Entry fees per month",
};

const MODERATION_COPY: Record<ModerationAction, { label: string; description: string; done: string; destructive: boolean }> = {
  suspend: {
    label: "Suspend",
    description: "No joins and no deposits; the player can still sign in and withdraw the balance.",
    done: "Account suspended",
    destructive: true,
  },
  unsuspend: { label: "Lift suspension", description: "Joins and deposits open again.", done: "Suspension lifted", destructive: false },
  ban: {
    label: "Ban",
    description: "The player is signed out everywhere and cannot sign in or play. Their balance is paid out through support.",
    done: "Account banned",
    destructive: true,
  },
  unban: { label: "Lift ban", description: "The player can sign in again.", done: "Ban lifted", destructive: false },
};

function Ledger({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const ledger = usePlayerLedger(id, page);
  const pages = ledger.data ? Math.max(1, Math.ceil(ledger.data.total / ledger.data.pageSize)) : 1;
  return (
    <Section title="Ledger">
      <Loaded query={ledger} empty={(d) => d.total === 0}>
        {(d) => (
          <>
            <ul className="divide-y divide-border">
              {d.entries.map((t) => (
                <li key={t.id} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                  <div className="min-w-0">
                    <p className="font-medium">{TRANSACTION_TYPE_LABEL[t.type]}</p>
                    {t.description && <p className="break-words text-muted-foreground">{t.description}</p>}
                    <p className="text-xs text-muted-foreground">
                      {when(t.createdAt)} · {t.status}
                    </p>
                  </div>
                  <span className="font-semibold">{formatDollars(t.amount)}</span>
                </li>
              ))}
            </ul>
            <div className="flex items-center justify-between text-sm">
              <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer
              </Button>
              <span>
                Page {page} of {pages}
              </span>
              <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Older
              </Button>
            </div>
          </>
        )}
      </Loaded>
    </Section>
  );
}

function Sessions({ id }: { id: number }) {
  const sessions = usePlayerSessions(id);
  const revoke = useRevokeSessions(id);
  const run = (sessionId: string | null) =>
    revoke.mutate(sessionId, {
      onSuccess: (r) => toast.success(`${r.revoked} session${r.revoked === 1 ? "" : "s"} ended`),
      onError: (e) => toast.error("Could not end the session", errorMessage(e)),
    });
  return (
    <Section title="Sessions">
      <Loaded query={sessions} empty={(d) => d.length === 0}>
        {(d) => (
          <>
            <ul className="divide-y divide-border">
              {d.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span>
                    Signed in {when(s.createdAt)} · last seen {when(s.lastSeenAt)}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Revoke session ${s.id}`}
                    disabled={revoke.isPending}
                    onClick={() => run(s.id)}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
            <Button size="sm" variant="destructive" disabled={revoke.isPending} onClick={() => run(null)}>
              Revoke all
            </Button>
          </>
        )}
      </Loaded>
    </Section>
  );
}

function FairPlayRecord({ id }: { id: number }) {
  const integrity = usePlayerIntegrity(id);
  return (
    <Section title="Fair play">
      <Loaded query={integrity} empty={(d) => d.cheatAttempts.length === 0 && d.flagged.length === 0}>
        {(d) => (
          <ul className="space-y-2 text-sm">
            {d.cheatAttempts.map((a) => (
              <li key={`a${a.id}`}>
                <span className="font-medium">Cheat attempt</span> in {a.tournamentTitle}: {a.reason} ({when(a.timestamp)})
                {a.reviewed && ` · reviewed: ${a.resolution}`}
              </li>
            ))}
            {d.flagged.map((f) => (
              <li key={`f${f.tournamentId}`}>
                <span className="font-medium">Flagged</span> in {f.tournamentTitle}: {f.flags.map((x) => x.detail).join("; ")} · prize{" "}
                {formatDollars(f.prize)} ({f.prizeStatus})
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </Section>
  );
}

function Adjustment({ id }: { id: number }) {
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const request = useRequestAdjustment(id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    request.mutate(
      { amount: Number(amount), reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success("Adjustment waits for a second operator's approval");
          setAmount("");
          setReason("");
        },
        onError: (err) => toast.error("Could not ask for the adjustment", errorMessage(err)),
      },
    );
  };
  return (
    <Section title="Balance adjustment">
      <form aria-label="Balance adjustment" onSubmit={submit} className="space-y-3">
        <p className="text-sm text-muted-foreground">
          A correction of the balance, written to the ledger as an adjustment once another operator approves it. The player is told, with
          the reason.
        </p>
        <div className="flex flex-wrap gap-3">
          <div className="space-y-1">
            <Label htmlFor="adj-amount">Amount (USD, negative to debit)</Label>
            <Input
              id="adj-amount"
              inputMode="decimal"
              pattern="-?[0-9]+(\.[0-9]{1,2})?"
              required
              className="w-40"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          </div>
          <div className="min-w-0 flex-1 space-y-1">
            <Label htmlFor="adj-reason">Reason (the player sees it)</Label>
            <Input id="adj-reason" required minLength={3} maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
        </div>
        <Button type="submit" disabled={request.isPending}>
          Ask for approval
        </Button>
      </form>
    </Section>
  );
}

export default function PlayerDetailScreen() {
  const id = Number(useParams().id);
  const player = usePlayer(id);
  const moderate = useModerate(id);
  const [action, setAction] = useState<ModerationAction | null>(null);
  if (player.isPending) return <PageSpinner />;
  if (!player.data) return <p className="text-destructive">{errorMessage(player.error)}</p>;
  const p = player.data;
  const rp = p.responsiblePlay;
  const actions: ModerationAction[] = [p.suspendedAt ? "unsuspend" : "suspend", p.bannedAt ? "unban" : "ban"];
  const copy = action ? MODERATION_COPY[action] : null;
  return (
    <div className="space-y-6">
      <Link to="/admin/players" className="text-sm text-primary underline-offset-4 hover:underline">
        ← Players
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="break-all text-2xl font-bold">{p.username}</h1>
        {p.role === "admin" && <Badge variant="outline">Operator</Badge>}
        {p.frozen && <Badge variant="destructive">Frozen</Badge>}
        {p.suspendedAt && <Badge variant="destructive">Suspended</Badge>}
        {p.bannedAt && <Badge variant="destructive">Banned</Badge>}
        {p.deleted && <Badge variant="secondary">Deleted</Badge>}
      </div>

      <Section title="Profile">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div>
            <dt className="inline text-muted-foreground">Email: </dt>
            <dd className="inline break-all">
              {p.email} {p.emailVerified ? "(verified)" : "(not verified)"}
            </dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Balance: </dt>
            <dd className="inline font-semibold">{formatDollars(p.balance)}</dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Owed to the house: </dt>
            <dd className="inline">{formatDollars(p.owed)}</dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Joined: </dt>
            <dd className="inline">{when(p.createdAt)}</dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Level, played, won: </dt>
            <dd className="inline">
              {p.level}, {p.tournamentsPlayed}, {p.tournamentsWon}
            </dd>
          </div>
          <div>
            <dt className="inline text-muted-foreground">Country, 2FA: </dt>
            <dd className="inline">
              {p.country ?? "unknown"}, {p.twoFactorEnabled ? "on" : "off"}
            </dd>
          </div>
        </dl>
        {p.frozen && (
          <p className="text-sm text-destructive">
            Frozen since {when(p.frozen.since)}: {p.frozen.reason}
          </p>
        )}
      </Section>

      <Section title="Suspension and ban">
        <p className="text-sm">
          {p.bannedAt
            ? `Banned since ${when(p.bannedAt)}.`
            : p.suspendedAt
              ? `Suspended since ${when(p.suspendedAt)}.`
              : "In good standing."}
          {p.note && ` Note: ${p.note}`}
        </p>
        <div className="flex flex-wrap gap-2">
          {actions.map((a) => (
            <Button key={a} variant={MODERATION_COPY[a].destructive ? "destructive" : "outline"} onClick={() => setAction(a)}>
              {MODERATION_COPY[a].label}
            </Button>
          ))}
        </div>
      </Section>

      <Section title="Limits and exclusions">
        <ul className="space-y-1 text-sm">
          {rp.exclusion && (
            <li className="font-medium">
              {rp.exclusion.kind === "cool_off" ? "Cool-off" : "Self-exclusion"} since {when(rp.exclusion.startsAt)}, until{" "}
              {rp.exclusion.endsAt ? when(rp.exclusion.endsAt) : "permanent"}
            </li>
          )}
          {rp.limits
            .filter((l) => l.amount !== null || l.pending !== null)
            .map((l) => (
              <li key={l.kind}>
                {LIMIT_LABEL[l.kind] ?? l.kind}: <span>{l.amount === null ? "no limit" : formatDollars(l.amount)}</span> (used{" "}
                {formatDollars(l.used)})
                {l.pending &&
                  ` · changes to ${l.pending.amount === null ? "no limit" : formatDollars(l.pending.amount)} on ${when(l.pending.from)}`}
              </li>
            ))}
          {!rp.exclusion && rp.limits.every((l) => l.amount === null && l.pending === null) && (
            <li className="text-muted-foreground">No limits or exclusions set.</li>
          )}
          <li className="text-muted-foreground">Date of birth: {rp.dateOfBirth ?? "not given"}</li>
        </ul>
      </Section>

      <IdentityRecord id={id} username={p.username} />
      <TermsRecord id={id} />
      <Adjustment id={id} />
      <FairPlayRecord id={id} />
      <Ledger id={id} />
      <Sessions id={id} />

      {action && copy && (
        <ConfirmWithNoteDialog
          open
          onOpenChange={(o) => !o && setAction(null)}
          title={`${copy.label}: ${p.username}`}
          description={copy.description}
          noteRequired
          noteLabel="Note for operators"
          confirmLabel={copy.label}
          destructive={copy.destructive}
          pending={moderate.isPending}
          onConfirm={(note) =>
            moderate.mutate(
              { action, note },
              {
                onSuccess: (r) => {
                  if ("approvalId" in r) toast.info(r.message);
                  else toast.success(copy.done);
                  setAction(null);
                },
                onError: (e) => toast.error(`Could not ${copy.label.toLowerCase()}`, errorMessage(e)),
              },
            )
          }
        />
      )}
    </div>
  );
}
