// The audit log (docs/operating.md): every operator action, newest first, with filters and what
// each changed.
import { useState } from "react";
import { AUDIT_ACTIONS } from "@common/api/console";
import { PageSpinner } from "@/components/ui/spinner";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { DataTable } from "../components/data-table";
import { FiltersBar } from "../components/filters-bar";
import { useAuditLog, type AuditFilterValues } from "./api";
import { AuditDiff } from "./audit-diff";

const FIELDS = ["action", "actor", "targetType", "targetId", "from", "to"] as const;
const clean = (f: AuditFilterValues): AuditFilterValues =>
  Object.fromEntries(FIELDS.flatMap((k) => (f[k]?.trim() ? [[k, f[k]!.trim()]] : [])));

export default function AuditPage() {
  const [draft, setDraft] = useState<AuditFilterValues>({});
  const [filters, setFilters] = useState<AuditFilterValues>({});
  const { data, error, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useAuditLog(filters);
  const set = (k: keyof AuditFilterValues) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const entries = data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <FiltersBar
        label="Audit log filters"
        onApply={() => setFilters(clean(draft))}
        onReset={() => {
          setDraft({});
          setFilters({});
        }}
      >
        <Field id="audit-action" label="Action">
          <Select id="audit-action" value={draft.action ?? ""} onChange={set("action")}>
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="audit-actor" label="Operator">
          <Input id="audit-actor" value={draft.actor ?? ""} onChange={set("actor")} placeholder="username" />
        </Field>
        <Field id="audit-target-type" label="Target type">
          <Input id="audit-target-type" value={draft.targetType ?? ""} onChange={set("targetType")} placeholder="user, payout…" />
        </Field>
        <Field id="audit-target-id" label="Target id">
          <Input id="audit-target-id" value={draft.targetId ?? ""} onChange={set("targetId")} />
        </Field>
        <Field id="audit-from" label="From">
          <Input id="audit-from" type="date" value={draft.from ?? ""} onChange={set("from")} />
        </Field>
        <Field id="audit-to" label="To">
          <Input id="audit-to" type="date" value={draft.to ?? ""} onChange={set("to")} />
        </Field>
      </FiltersBar>
      {isLoading ? (
        <PageSpinner />
      ) : error && entries.length === 0 ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(error)}
        </p>
      ) : (
        <DataTable
          caption="Audit log"
          rows={entries}
          rowKey={(e) => e.id}
          empty="No operator action matches these filters."
          columns={[
            { key: "when", header: "When", cell: (e) => new Date(e.createdAt).toLocaleString() },
            { key: "who", header: "Operator", cell: (e) => e.actor.username },
            { key: "what", header: "Action", cell: (e) => <code className="text-xs">{e.action}</code> },
            { key: "target", header: "Target", cell: (e) => `${e.targetType}${e.targetId ? ` #${e.targetId}` : ""}` },
            { key: "change", header: "Change", cell: (e) => <AuditDiff before={e.before} after={e.after} /> },
            { key: "note", header: "Note", cell: (e) => e.note ?? "" },
          ]}
        />
      )}
      {hasNextPage && (
        <Button variant="outline" className="self-center" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          Older entries
        </Button>
      )}
    </div>
  );
}
