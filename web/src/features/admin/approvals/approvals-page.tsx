// The two-person rule's queue (docs/operating.md): what waits for a second operator, what each
// will do, and approving or rejecting it with a note.
import { useState } from "react";
import type { ApprovalView } from "@common/api/console";
import { PageSpinner } from "@/components/ui/spinner";
import { Button } from "@/components/ui/button";
import { Label, Select } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { ConfirmWithNoteDialog } from "../components/confirm-note-dialog";
import { DataTable } from "../components/data-table";
import { MoneyCell } from "../components/money-cell";
import { StatusBadge } from "../components/status-badge";
import { useApprovals, useDecideApproval, type ApprovalFilter } from "./api";

const KIND_LABELS: Record<ApprovalView["kind"], string> = {
  payout: "Payout",
  adjustment: "Balance adjustment",
  house_pool: "House-funded pool",
  held_prize: "Held prize release",
  tournament_edit: "Edit of an approved tournament",
  operator_ban: "Ban of an operator",
  payout_return: "Bank return of a payout",
  disqualification: "Disqualification of a player",
};
const STATUS_LABELS: Record<ApprovalView["status"], string> = { pending: "Pending", approved: "Approved", rejected: "Rejected" };
const when = (iso: string) => new Date(iso).toLocaleString();

export default function ApprovalsPage() {
  const [filter, setFilter] = useState<ApprovalFilter>("all");
  const [deciding, setDeciding] = useState<{ approval: ApprovalView; decision: "approve" | "reject" } | null>(null);
  const { data, error, isLoading } = useApprovals(filter);
  const decide = useDecideApproval();

  const confirm = (note: string) => {
    if (!deciding) return;
    const { approval, decision } = deciding;
    decide.mutate(
      { id: approval.id, decision, note },
      {
        onSuccess: () => {
          toast.success(decision === "approve" ? "Approved" : "Rejected", approval.summary);
          setDeciding(null);
        },
        onError: (e) => {
          toast.error(decision === "approve" ? "Not approved" : "Not rejected", errorMessage(e));
          setDeciding(null);
        },
      },
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Approvals</h1>
      <p className="text-sm text-muted-foreground">
        Large payouts, manual balance adjustments and large house-funded pools wait here until a second operator approves them.
      </p>
      <div className="flex items-center gap-2">
        <Label htmlFor="approval-status">Show</Label>
        <Select id="approval-status" value={filter} onChange={(e) => setFilter(e.target.value as ApprovalFilter)} className="w-auto">
          <option value="all">All, pending first</option>
          <option value="pending">Pending</option>
          <option value="approved">Approved</option>
          <option value="rejected">Rejected</option>
        </Select>
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : !data ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(error)}
        </p>
      ) : (
        <DataTable
          caption="Approvals"
          rows={data}
          rowKey={(a) => a.id}
          empty="Nothing waits for a second operator."
          columns={[
            {
              key: "what",
              header: "What it will do",
              cell: (a) => (
                <div>
                  <p className="font-medium">{a.summary}</p>
                  <p className="text-xs text-muted-foreground">{KIND_LABELS[a.kind]}</p>
                </div>
              ),
            },
            { key: "amount", header: "Amount", numeric: true, cell: (a) => <MoneyCell usd={a.amount} /> },
            {
              key: "asked",
              header: "Asked by",
              cell: (a) => (
                <div>
                  <p>{a.requestedBy.username}</p>
                  <p className="text-xs text-muted-foreground">{when(a.requestedAt)}</p>
                </div>
              ),
            },
            {
              key: "status",
              header: "Status",
              cell: (a) => (
                <div className="flex flex-col gap-1">
                  <StatusBadge status={a.status} label={STATUS_LABELS[a.status]} />
                  {a.decidedBy && (
                    <p className="text-xs text-muted-foreground">
                      by {a.decidedBy.username}
                      {a.note ? `: ${a.note}` : ""}
                    </p>
                  )}
                </div>
              ),
            },
            {
              key: "decide",
              header: "Decision",
              cell: (a) =>
                a.status !== "pending" ? null : a.mine ? (
                  <p className="text-xs text-muted-foreground">You asked for this. Another operator must decide.</p>
                ) : (
                  <div className="flex gap-2">
                    <Button size="sm" onClick={() => setDeciding({ approval: a, decision: "approve" })}>
                      Approve
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setDeciding({ approval: a, decision: "reject" })}>
                      Reject
                    </Button>
                  </div>
                ),
            },
          ]}
        />
      )}
      <ConfirmWithNoteDialog
        open={deciding !== null}
        onOpenChange={(open) => !open && setDeciding(null)}
        title={deciding?.decision === "approve" ? "Approve this request?" : "Reject this request?"}
        description={deciding ? `${deciding.approval.summary} (asked by ${deciding.approval.requestedBy.username}).` : ""}
        confirmLabel={deciding?.decision === "approve" ? "Approve" : "Reject"}
        noteRequired={deciding?.decision === "reject"}
        destructive={deciding?.decision === "reject"}
        pending={decide.isPending}
        onConfirm={confirm}
      />
    </div>
  );
}
