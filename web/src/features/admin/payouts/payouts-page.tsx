// Payouts (docs/operating.md, "Payouts and the ACH file"): the queue with its filters, the
// two-person rule for large payouts, the selection exported as an ACH file, batches downloaded
// again and marked paid, legacy payouts (last 4 digits only) paid by hand, and failures with a reason.
import { useState, type FormEvent } from "react";
import type { PayoutBatchView, PayoutQueueItem } from "@common/api/payouts";
import { formatDollars } from "@common/domain/money";
import { MONEY } from "@common/messages";
import { PAYOUTS } from "@common/console-messages";
import { isAchReturnCode, isIsoDate } from "@common/domain/ach-returns";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { PageSpinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { ConfirmWithNoteDialog } from "../components/confirm-note-dialog";
import { DataTable } from "../components/data-table";
import { FiltersBar } from "../components/filters-bar";
import { MoneyCell } from "../components/money-cell";
import { StatusBadge } from "../components/status-badge";
import {
  downloadBatchFile,
  saveFile,
  useExportPayouts,
  useMarkBatchPaid,
  usePayoutBatches,
  usePayoutQueue,
  useBankReturn,
  useRequestPayoutApproval,
  useSettlePayout,
  type PayoutFilters,
} from "./api";

const FIELDS = ["status", "minAmount", "maxAmount", "from", "to", "username"] as const;
const DEFAULT_FILTERS: PayoutFilters = { status: "pending" };
const clean = (f: PayoutFilters): PayoutFilters => Object.fromEntries(FIELDS.flatMap((k) => (f[k]?.trim() ? [[k, f[k]!.trim()]] : [])));

const STATUS_LABELS: Record<PayoutQueueItem["status"], string> = { pending: "Pending", paid: "Paid", failed: "Failed" };
const when = (iso: string) => new Date(iso).toLocaleString();

/** Can go in an ACH file now: pending, in no file yet, its account kept, approved when it must be. */
const exportable = (p: PayoutQueueItem) =>
  p.status === "pending" &&
  p.batchId === null &&
  p.payableByFile &&
  (p.approval.state === "not_required" || p.approval.state === "approved");

export default function PayoutsPage() {
  const [draft, setDraft] = useState<PayoutFilters>(DEFAULT_FILTERS);
  const [filters, setFilters] = useState<PayoutFilters>(DEFAULT_FILTERS);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [failing, setFailing] = useState<PayoutQueueItem | null>(null);
  const [paying, setPaying] = useState<PayoutQueueItem | null>(null);
  const [closing, setClosing] = useState<PayoutBatchView | null>(null);
  const queue = usePayoutQueue(filters);
  const batches = usePayoutBatches();
  const exportFile = useExportPayouts();
  const requestApproval = useRequestPayoutApproval();
  const settle = useSettlePayout();
  const markPaid = useMarkBatchPaid();
  const set = (k: keyof PayoutFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });

  const items = queue.data?.items ?? [];
  const chosen = items.filter((p) => selected.has(p.id) && exportable(p));
  const chosenTotal = chosen.reduce((sum, p) => sum + Math.round(p.amount * 100), 0) / 100;
  const threshold = queue.data ? formatDollars(queue.data.approvalThreshold) : null;

  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  const runExport = () =>
    exportFile.mutate(
      chosen.map((p) => p.id),
      {
        onSuccess: (file) => {
          saveFile(file);
          setSelected(new Set());
          toast.success(`Batch #${file.batchId ?? "?"} exported`, `${file.fileName}: send it to the bank, then mark the batch paid.`);
        },
        onError: (e) => toast.error("Not exported", errorMessage(e)),
      },
    );

  const download = (b: PayoutBatchView) =>
    downloadBatchFile(b.id).then(saveFile, (e: unknown) => toast.error("Not downloaded", errorMessage(e)));

  const ask = (p: PayoutQueueItem) =>
    requestApproval.mutate(p.id, {
      onSuccess: (r) => toast.success(`Approval #${r.approvalId} requested`, r.message),
      onError: (e) => toast.error("Approval not requested", errorMessage(e)),
    });

  const fail = (reason: string) => {
    if (!failing) return;
    const p = failing;
    settle.mutate(
      { id: p.id, outcome: "failed", reason },
      {
        onSuccess: () =>
          toast.success(
            `Payout #${p.id} failed`,
            `${formatDollars(p.amount)} is back in ${p.username}'s balance; they have been told why.`,
          ),
        onError: (e) => toast.error("Not failed", errorMessage(e)),
        onSettled: () => setFailing(null),
      },
    );
  };

  const payByHand = () => {
    if (!paying) return;
    const p = paying;
    settle.mutate(
      { id: p.id, outcome: "paid" },
      {
        onSuccess: () => toast.success(`Payout #${p.id} marked paid`),
        onError: (e) => toast.error("Not marked paid", errorMessage(e)),
        onSettled: () => setPaying(null),
      },
    );
  };

  const closeBatch = () => {
    if (!closing) return;
    const b = closing;
    markPaid.mutate(b.id, {
      onSuccess: (r) => toast.success(`Batch #${b.id} paid`, `${r.paid} payout${r.paid === 1 ? "" : "s"} marked paid.`),
      onError: (e) => toast.error("Not marked paid", errorMessage(e)),
      onSettled: () => setClosing(null),
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Payouts</h1>
      <p className="text-sm text-muted-foreground">
        Select pending payouts and export them as an ACH file for the bank; mark the batch paid once the bank has paid it.
        {threshold && ` Payouts above ${threshold} need a second operator's approval first.`}
      </p>
      <FiltersBar
        label="Payout filters"
        onApply={() => {
          setFilters(clean(draft));
          setSelected(new Set());
        }}
        onReset={() => {
          setDraft(DEFAULT_FILTERS);
          setFilters(DEFAULT_FILTERS);
          setSelected(new Set());
        }}
      >
        <Field id="payout-status" label="Status">
          <Select id="payout-status" value={draft.status ?? ""} onChange={set("status")}>
            <option value="pending">Pending</option>
            <option value="paid">Paid</option>
            <option value="failed">Failed</option>
            <option value="">All</option>
          </Select>
        </Field>
        <Field id="payout-min" label="Min $">
          <Input id="payout-min" inputMode="decimal" className="w-28" value={draft.minAmount ?? ""} onChange={set("minAmount")} />
        </Field>
        <Field id="payout-max" label="Max $">
          <Input id="payout-max" inputMode="decimal" className="w-28" value={draft.maxAmount ?? ""} onChange={set("maxAmount")} />
        </Field>
        <Field id="payout-from" label="From">
          <Input id="payout-from" type="date" value={draft.from ?? ""} onChange={set("from")} />
        </Field>
        <Field id="payout-to" label="To">
          <Input id="payout-to" type="date" value={draft.to ?? ""} onChange={set("to")} />
        </Field>
        <Field id="payout-username" label="Player">
          <Input id="payout-username" value={draft.username ?? ""} onChange={set("username")} placeholder="username" />
        </Field>
      </FiltersBar>

      <div className="flex flex-wrap items-center gap-3">
        <Button disabled={chosen.length === 0 || exportFile.isPending} onClick={runExport}>
          Export ACH file
        </Button>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {chosen.length === 0 ? "Select payouts to export." : `${chosen.length} selected, ${formatDollars(chosenTotal)}`}
        </p>
      </div>

      {queue.isLoading ? (
        <PageSpinner />
      ) : !queue.data ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(queue.error)}
        </p>
      ) : (
        <>
          {queue.data.truncated && (
            <p className="text-sm text-muted-foreground">Only the first {items.length} are shown: narrow the filters.</p>
          )}
          <DataTable
            caption="Payout queue"
            rows={items}
            rowKey={(p) => p.id}
            empty="No payout matches these filters."
            columns={[
              {
                key: "select",
                header: "Select",
                cell: (p) =>
                  exportable(p) ? (
                    <Checkbox
                      aria-label={`Select payout #${p.id}`}
                      checked={selected.has(p.id)}
                      onCheckedChange={(on) => toggle(p.id, on === true)}
                    />
                  ) : null,
              },
              {
                key: "player",
                header: "Player",
                cell: (p) => (
                  <div>
                    <p className="font-medium">{p.username}</p>
                    <p className="text-xs text-muted-foreground">
                      #{p.id} · {when(p.createdAt)}
                    </p>
                  </div>
                ),
              },
              { key: "amount", header: "Amount", numeric: true, cell: (p) => <MoneyCell usd={p.amount} /> },
              {
                key: "account",
                header: "Account",
                cell: (p) => (
                  <div>
                    <p>
                      {p.accountHolderName}, {p.accountType} {p.accountMasked}
                    </p>
                    <p className="text-xs text-muted-foreground">routing {p.routingNumber}</p>
                    {!p.payableByFile && <p className="text-xs text-amber-600 dark:text-amber-400">Legacy: {PAYOUTS.legacy}</p>}
                  </div>
                ),
              },
              {
                key: "status",
                header: "Status",
                cell: (p) => (
                  <div className="flex flex-col gap-1">
                    <StatusBadge status={p.status} label={STATUS_LABELS[p.status]} />
                    {p.batchId !== null && <p className="text-xs text-muted-foreground">In batch #{p.batchId}</p>}
                    {p.failureReason && <p className="text-xs text-muted-foreground">{p.failureReason}</p>}
                  </div>
                ),
              },
              {
                key: "approval",
                header: "Approval",
                cell: (p) =>
                  p.approval.state === "not_required" ? (
                    <span className="text-xs text-muted-foreground">Not needed</span>
                  ) : p.approval.state === "approved" ? (
                    <StatusBadge status="approved" label={`Approved by ${p.approval.approvedBy ?? "another operator"}`} />
                  ) : p.approval.state === "requested" ? (
                    <StatusBadge status="pending" label={`Approval #${p.approval.approvalId} requested`} />
                  ) : p.status !== "pending" ? null : (
                    <div className="flex flex-col items-start gap-1">
                      <StatusBadge status="pending" label="Needs approval" />
                      <Button size="sm" variant="outline" disabled={requestApproval.isPending} onClick={() => ask(p)}>
                        Request approval
                      </Button>
                    </div>
                  ),
              },
              {
                key: "actions",
                header: "Actions",
                cell: (p) =>
                  p.status !== "pending" ? null : (
                    <div className="flex flex-wrap gap-2">
                      {!p.payableByFile && (p.approval.state === "not_required" || p.approval.state === "approved") && (
                        <Button size="sm" variant="outline" onClick={() => setPaying(p)}>
                          Mark paid
                        </Button>
                      )}
                      <Button size="sm" variant="ghost" onClick={() => setFailing(p)}>
                        Fail…
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        </>
      )}

      <h2 className="mt-4 text-xl font-semibold">Batches (ACH files)</h2>
      {batches.isLoading ? (
        <PageSpinner />
      ) : !batches.data ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(batches.error)}
        </p>
      ) : (
        <DataTable
          caption="Payout batches"
          rows={batches.data}
          rowKey={(b) => b.id}
          empty="No ACH file exported yet."
          columns={[
            {
              key: "file",
              header: "File",
              cell: (b) => (
                <div>
                  <p className="font-medium break-all">{b.fileName}</p>
                  <p className="text-xs text-muted-foreground">
                    #{b.id} · {b.createdBy.username} · {when(b.createdAt)}
                  </p>
                </div>
              ),
            },
            { key: "entries", header: "Payouts", numeric: true, cell: (b) => b.entryCount },
            { key: "total", header: "Total", numeric: true, cell: (b) => <MoneyCell usd={b.total} /> },
            {
              key: "status",
              header: "Status",
              cell: (b) => (
                <div className="flex flex-col gap-1">
                  <StatusBadge status={b.status} label={b.status === "paid" ? `Paid by ${b.paidBy?.username ?? "?"}` : "Exported"} />
                  <p className="text-xs text-muted-foreground">
                    {b.payouts.paid} paid · {b.payouts.pending} pending · {b.payouts.failed} failed
                  </p>
                </div>
              ),
            },
            {
              key: "actions",
              header: "Actions",
              cell: (b) => (
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" variant="outline" onClick={() => void download(b)}>
                    Download
                  </Button>
                  {b.status === "exported" && (
                    <Button size="sm" onClick={() => setClosing(b)}>
                      Mark paid
                    </Button>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}

      <BankReturnDialog payout={failing?.batchId != null ? failing : null} onClose={() => setFailing(null)} />
      <ConfirmWithNoteDialog
        open={failing !== null && failing.batchId === null}
        onOpenChange={(open) => !open && setFailing(null)}
        title={failing ? `Fail payout #${failing.id}?` : ""}
        description={
          failing
            ? `${formatDollars(failing.amount)} goes back to ${failing.username}'s balance, and they are told the reason you give.`
            : ""
        }
        noteLabel="Reason"
        noteRequired
        destructive
        confirmLabel="Fail payout"
        pending={settle.isPending}
        onConfirm={fail}
      />
      <SimpleConfirm
        open={paying !== null}
        onClose={() => setPaying(null)}
        title={paying ? `Mark payout #${paying.id} paid?` : ""}
        description={paying ? `Only once you have paid ${formatDollars(paying.amount)} to ${paying.username} by other means.` : ""}
        confirmLabel="Mark paid"
        pending={settle.isPending}
        onConfirm={payByHand}
      />
      <SimpleConfirm
        open={closing !== null}
        onClose={() => setClosing(null)}
        title={closing ? `Mark batch #${closing.id} paid?` : ""}
        description={
          closing
            ? `Every payout of ${closing.fileName} still pending (${closing.payouts.pending}) is marked paid. Do it once the bank has paid the file; fail a returned payout on its own.`
            : ""
        }
        confirmLabel="Mark paid"
        pending={markPaid.isPending}
        onConfirm={closeBatch}
      />
    </div>
  );
}

function SimpleConfirm({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" disabled={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Failing a payout of an exported file: the bank's return (its R-code and the date on the return
 * notice) and an optional note; it waits for a second operator's approval (docs/operating.md).
 */
function BankReturnDialog({ payout, onClose }: { payout: PayoutQueueItem | null; onClose: () => void }) {
  return (
    <Dialog open={payout !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{payout && <BankReturnForm payout={payout} onClose={onClose} />}</DialogContent>
    </Dialog>
  );
}

function BankReturnForm({ payout, onClose }: { payout: PayoutQueueItem; onClose: () => void }) {
  const bankReturn = useBankReturn();
  const [returnCode, setReturnCode] = useState("");
  const [returnDate, setReturnDate] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<{ code?: string; date?: string }>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const code = returnCode.trim().toUpperCase();
    const next = {
      code: isAchReturnCode(code) ? undefined : MONEY.returnCodeInvalid,
      date: isIsoDate(returnDate) ? undefined : MONEY.returnDateInvalid,
    };
    setErrors(next);
    if (next.code || next.date) return;
    bankReturn.mutate(
      { id: payout.id, returnCode: code, returnDate, note: note.trim() },
      {
        onSuccess: (r) => {
          // 202: it waits for a second operator; 200 only when the payout was settled meanwhile.
          if ("approvalId" in r) toast.success(`Approval #${r.approvalId} requested`, r.message);
          else toast.info(`Payout #${r.id} is already ${r.status}`);
          onClose();
        },
        onError: (err) => toast.error("Not recorded", errorMessage(err)),
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <DialogHeader>
        <DialogTitle>Bank return of payout #{payout.id}</DialogTitle>
        <DialogDescription>
          {`It is in batch #${payout.batchId}, which the bank received. Enter the return from the bank's notice: once another operator approves, ${formatDollars(payout.amount)} goes back to ${payout.username}'s balance and they are told why.`}
        </DialogDescription>
      </DialogHeader>
      <Field id="return-code" label="Return code (R01-R85)" error={errors.code}>
        <Input id="return-code" value={returnCode} onChange={(e) => setReturnCode(e.target.value)} maxLength={3} placeholder="R01" />
      </Field>
      <Field id="return-date" label="Return date" error={errors.date}>
        <Input id="return-date" type="date" value={returnDate} onChange={(e) => setReturnDate(e.target.value)} />
      </Field>
      <Field id="return-note" label="Note (optional)">
        <Input id="return-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={bankReturn.isPending}>
          Request approval
        </Button>
      </DialogFooter>
    </form>
  );
}
