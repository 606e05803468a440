// The profile's "Responsible play" tab (docs/responsible-play.md): the player's own limits with
// their usage and any raise still waiting, a cool-off or self-exclusion confirmed with the
// password, the break in force, and the date of birth.
import { useState, type FormEvent } from "react";
import { ShieldAlert } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import type { LimitKind, LimitView, ResponsiblePlayState } from "@common/api/responsible-play";
import { COOL_OFF_PERIODS, SELF_EXCLUSION_PERIODS } from "@common/api/responsible-play";
import { RESPONSIBLE, RESPONSIBLE_UI } from "@common/messages";
import { formatDollars } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { PageSpinner } from "@/components/ui/spinner";
import { DateOfBirthForm } from "@/components/date-of-birth-form";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { USER_KEY } from "@/lib/session";
import { RESPONSIBLE_PLAY_KEY, useResponsiblePlay, useSaveLimits, useStartCoolOff, useStartSelfExclusion } from "./responsible-play-api";

const PERIODS = ["daily", "weekly", "monthly"] as const;
const SPAN = { daily: "24 hours", weekly: "7 days", monthly: "30 days" } as const;
const COOL_OFF_LABEL: Record<(typeof COOL_OFF_PERIODS)[number], string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" };
const SELF_EXCLUSION_LABEL: Record<(typeof SELF_EXCLUSION_PERIODS)[number], string> = {
  "6m": "6 months",
  "1y": "1 year",
  permanent: "permanently",
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function ResponsiblePlaySettings() {
  const state = useResponsiblePlay();
  if (state.isError) return <p role="alert">{errorMessage(state.error)}</p>;
  if (!state.data) return <PageSpinner />;
  return (
    <div className="space-y-6">
      <ExclusionStatus state={state.data} />
      <LimitsCard key={JSON.stringify(state.data.limits)} limits={state.data.limits} />
      <BreakCard kind="cool_off" />
      <BreakCard kind="self_exclusion" />
      <DateOfBirthCard dateOfBirth={state.data.dateOfBirth} />
    </div>
  );
}

function ExclusionStatus({ state }: { state: ResponsiblePlayState }) {
  const e = state.exclusion;
  if (!e) return null;
  const text =
    e.kind === "cool_off"
      ? `You are on a break until ${when(e.endsAt!)}. Deposits and joining tournaments are paused until then.`
      : e.endsAt === null
        ? "You have excluded yourself permanently. Deposits and joining tournaments are closed on this account."
        : `You have excluded yourself until ${when(e.endsAt)}. Deposits and joining tournaments are closed until then.`;
  return (
    <div role="status" className="flex items-start gap-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-4 text-sm">
      <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <p>{text} Your balance can still be withdrawn.</p>
    </div>
  );
}

const inputValue = (l: LimitView | undefined) => (l?.amount == null ? "" : String(l.amount));

function LimitsCard({ limits }: { limits: LimitView[] }) {
  const save = useSaveLimits();
  const byKind = new Map(limits.map((l) => [l.kind, l]));
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(limits.map((l) => [l.kind, inputValue(l)])));
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Only what the player changed: resending an unchanged limit would cancel a raise waiting for its time.
    const changed = Object.fromEntries(
      Object.entries(values)
        .filter(([kind, v]) => v.trim() !== inputValue(byKind.get(kind as LimitKind)))
        .map(([kind, v]) => [kind, v.trim() === "" ? null : v.trim()]),
    );
    setError(null);
    save.mutate(changed, {
      onSuccess: (state) => toast.success(state.message ?? RESPONSIBLE.limitsSaved),
      onError: (err) => setError(errorMessage(err, RESPONSIBLE_UI.limitsFailed)),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your limits</CardTitle>
        <CardDescription>
          Limits count over rolling windows: the last 24 hours, 7 days and 30 days. A lower limit applies at once; a higher one, or removing
          one, applies 24 hours after you ask. Leave a box empty for no limit.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-6" noValidate>
          {(["deposit", "entry_fees"] as const).map((family) => (
            <fieldset key={family} className="space-y-3">
              <legend className="font-medium">{family === "deposit" ? "Deposit limits" : "Entry-fee limits"}</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                {PERIODS.map((period) => {
                  const kind = `${family}_${period}` as LimitKind;
                  const limit = byKind.get(kind);
                  const label = capitalised(RESPONSIBLE.limitName(family, period));
                  return (
                    <div key={kind} className="space-y-1">
                      <Field id={`limit-${kind}`} label={`${label} ($)`}>
                        <Input
                          id={`limit-${kind}`}
                          inputMode="decimal"
                          placeholder="No limit"
                          value={values[kind] ?? ""}
                          onChange={(e) => setValues({ ...values, [kind]: e.target.value })}
                        />
                      </Field>
                      {limit && <LimitNote limit={limit} span={SPAN[period]} />}
                    </div>
                  );
                })}
              </div>
            </fieldset>
          ))}
          {error && (
            <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
              {error}
            </p>
          )}
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save limits"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function LimitNote({ limit, span }: { limit: LimitView; span: string }) {
  return (
    <div className="text-xs text-muted-foreground">
      {limit.amount !== null && (
        <p>
          {formatDollars(limit.used)} used in the last {span}; {formatDollars(limit.left ?? 0)} left.
        </p>
      )}
      {limit.pending && (
        <p className="text-amber-700 dark:text-amber-400">
          {limit.pending.amount === null
            ? `Removed from ${when(limit.pending.from)}.`
            : `Rises to ${formatDollars(limit.pending.amount)} from ${when(limit.pending.from)}.`}
        </p>
      )}
    </div>
  );
}

/** A cool-off or self-exclusion: choose the length, then confirm with the password in a dialog that says it cannot be undone. */
function BreakCard({ kind }: { kind: "cool_off" | "self_exclusion" }) {
  const coolOff = useStartCoolOff();
  const selfExclusion = useStartSelfExclusion();
  const qc = useQueryClient();
  const coolingOff = kind === "cool_off";
  const periods: readonly string[] = coolingOff ? COOL_OFF_PERIODS : SELF_EXCLUSION_PERIODS;
  const labelOf = (p: string) =>
    coolingOff ? COOL_OFF_LABEL[p as keyof typeof COOL_OFF_LABEL] : SELF_EXCLUSION_LABEL[p as keyof typeof SELF_EXCLUSION_LABEL];
  const [period, setPeriod] = useState(periods[0]!);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const pending = coolOff.isPending || selfExclusion.isPending;
  const title = coolingOff ? "Take a break (cool-off)" : "Self-exclusion";
  const action = coolingOff ? "Start cool-off" : "Exclude myself";

  const onOpenChange = (next: boolean) => {
    if (!next) {
      setPassword("");
      setError(null);
    }
    setOpen(next);
  };

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    const done = {
      onSuccess: (state: ResponsiblePlayState) => {
        onOpenChange(false);
        if (state.message) toast.success(state.message);
        // Entries that were left are refunded: the balance changed.
        void qc.invalidateQueries({ queryKey: USER_KEY, exact: true });
      },
      onError: (err: unknown) => setError(errorMessage(err, RESPONSIBLE_UI.exclusionFailed)),
    };
    if (coolingOff) coolOff.mutate({ period: period as (typeof COOL_OFF_PERIODS)[number], password }, done);
    else selfExclusion.mutate({ period: period as (typeof SELF_EXCLUSION_PERIODS)[number], password }, done);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>
          {coolingOff
            ? "A short break from deposits and all tournaments, free or paid. It cannot be ended early."
            : "A long break from deposits and all tournaments: 6 months, a year, or for good. It cannot be undone or shortened. Your balance stays withdrawable."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Field id={`${kind}-period`} label="Length">
            <Select id={`${kind}-period`} value={period} onChange={(e) => setPeriod(e.target.value)}>
              {periods.map((p) => (
                <option key={p} value={p}>
                  {capitalised(labelOf(p))}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Button variant={coolingOff ? "outline" : "destructive"} onClick={() => onOpenChange(true)}>
          {action}
        </Button>
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>
                {coolingOff
                  ? `Take a break for ${labelOf(period)}?`
                  : `Exclude yourself ${labelOf(period) === "permanently" ? "permanently" : `for ${labelOf(period)}`}?`}
              </DialogTitle>
              <DialogDescription>
                {coolingOff ? RESPONSIBLE_UI.coolOffConfirm(labelOf(period)) : RESPONSIBLE_UI.selfExclusionConfirm(labelOf(period))}
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={confirm} className="space-y-4" noValidate>
              <Field id={`${kind}-password`} label="Password">
                <Input
                  id={`${kind}-password`}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </Field>
              {error && (
                <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
                  {error}
                </p>
              )}
              <DialogFooter>
                <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="destructive" disabled={pending || password === ""}>
                  {pending ? "Starting..." : `Yes, ${action.toLowerCase()}`}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}

function DateOfBirthCard({ dateOfBirth }: { dateOfBirth: string | null }) {
  const qc = useQueryClient();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{RESPONSIBLE_UI.dateOfBirthTitle}</CardTitle>
        <CardDescription>{RESPONSIBLE_UI.dateOfBirthWhy}</CardDescription>
      </CardHeader>
      <CardContent className="max-w-sm">
        {dateOfBirth ? (
          <p>
            On file: <span className="font-medium">{dateOfBirth}</span>. {RESPONSIBLE.dateOfBirthAlreadySet}
          </p>
        ) : (
          <DateOfBirthForm submitLabel="Save date of birth" onSaved={() => void qc.invalidateQueries({ queryKey: RESPONSIBLE_PLAY_KEY })} />
        )}
      </CardContent>
    </Card>
  );
}
