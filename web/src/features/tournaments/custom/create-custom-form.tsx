// The create form of a custom tournament: the shared schema (common/api/custom-tournaments.ts)
// checks each field here as the Worker will; the Worker's own refusals (a start too soon, too few
// questions, the cap) are shown as it words them.
import { useState, type FormEvent } from "react";
import { createCustomTournamentSchema, type CreateCustomTournamentInput, type CustomTournament } from "@common/api/custom-tournaments";
import { CUSTOM, FORMAT_LABEL } from "@common/messages";
import { CUSTOM_ENTRY_FEES_CENTS, CUSTOM_SEATS_MAX, CUSTOM_SEATS_MIN } from "@common/spec";
import { formatCents } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { useCategories } from "@/lib/categories";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { useIdempotencyKey } from "@/hooks/use-idempotency-key";
import { useCreateCustomTournament } from "./api";

/** A date as the datetime-local input wants it, in the browser's time zone. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

interface FormState {
  title: string;
  categoryId: string;
  start: string;
  seats: string;
  entryFeeCents: string;
  format: "live_show" | "self_paced";
}

const initial = (): FormState => ({
  title: "",
  categoryId: "",
  start: localInput(new Date(Date.now() + 24 * 60 * 60_000)),
  seats: "20",
  entryFeeCents: "0",
  format: "live_show",
});

/** What the API takes; numbers as typed, so the schema can name what is wrong. */
const toInput = (s: FormState): CreateCustomTournamentInput => {
  const start = s.start ? new Date(s.start) : null;
  return {
    title: s.title,
    categoryId: s.categoryId === "" ? Number.NaN : Number(s.categoryId),
    startTime: start && !Number.isNaN(start.getTime()) ? start.toISOString() : "",
    seats: s.seats.trim() === "" ? Number.NaN : Number(s.seats),
    entryFeeCents: Number(s.entryFeeCents),
    format: s.format,
  };
};

const feeLabel = (cents: number) => (cents === 0 ? "Free (no prizes)" : `$${formatCents(cents)} entry`);

export function CreateCustomForm({ onCreated }: { onCreated: (t: CustomTournament) => void }) {
  const [s, setS] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [key, renewKey] = useIdempotencyKey();
  const create = useCreateCustomTournament();
  const categories = useCategories();
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setS((prev) => ({ ...prev, [k]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = toInput(s);
    const v = validate(createCustomTournamentSchema, input);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    create.mutate(
      { input, idempotencyKey: key },
      {
        onSuccess: (t) => {
          renewKey();
          setS(initial());
          onCreated(t);
        },
      },
    );
  };

  const fee = Number(s.entryFeeCents);
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-2" aria-label={CUSTOM.createTitle}>
      <div className="md:col-span-2">
        <Field id="custom-title" label="Title" error={errors.title}>
          <Input
            id="custom-title"
            value={s.title}
            maxLength={80}
            onChange={(e) => set("title", e.target.value)}
            {...invalidProps("custom-title", errors.title)}
          />
        </Field>
      </div>
      <Field id="custom-category" label="Category" error={errors.categoryId}>
        <Select
          id="custom-category"
          value={s.categoryId}
          onChange={(e) => set("categoryId", e.target.value)}
          {...invalidProps("custom-category", errors.categoryId)}
        >
          <option value="">Pick one</option>
          {categories.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="custom-start" label="Start" error={errors.startTime}>
        <Input
          id="custom-start"
          type="datetime-local"
          value={s.start}
          onChange={(e) => set("start", e.target.value)}
          {...invalidProps("custom-start", errors.startTime)}
        />
      </Field>
      <Field id="custom-seats" label={`Seats (${CUSTOM_SEATS_MIN}-${CUSTOM_SEATS_MAX})`} error={errors.seats}>
        <Input
          id="custom-seats"
          type="number"
          inputMode="numeric"
          min={CUSTOM_SEATS_MIN}
          max={CUSTOM_SEATS_MAX}
          value={s.seats}
          onChange={(e) => set("seats", e.target.value)}
          {...invalidProps("custom-seats", errors.seats)}
        />
      </Field>
      <Field id="custom-fee" label="Entry fee" error={errors.entryFeeCents}>
        <Select id="custom-fee" value={s.entryFeeCents} onChange={(e) => set("entryFeeCents", e.target.value)}>
          {CUSTOM_ENTRY_FEES_CENTS.map((c) => (
            <option key={c} value={c}>
              {feeLabel(c)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="custom-format" label="Format" error={errors.format}>
        <Select id="custom-format" value={s.format} onChange={(e) => set("format", e.target.value as FormState["format"])}>
          <option value="live_show">{FORMAT_LABEL.live_show.title}</option>
          <option value="self_paced">{FORMAT_LABEL.self_paced.title}</option>
        </Select>
      </Field>
      <p className="text-sm text-muted-foreground md:col-span-2">
        {fee > 0
          ? "Players pay the entry fee when they join; 85% of all fees go to the top three (65/25/10). It starts with at least 10 players, otherwise it is cancelled and every fee refunded. You pay nothing to create it, and you never see its questions: they are drawn like any tournament's."
          : "Free: no prizes; correct answers still earn XP. Its questions come from the practice pool, and you never see them before the start."}
      </p>
      {create.isError && (
        <p role="alert" className="text-sm text-destructive md:col-span-2">
          {errorMessage(create.error, "The tournament could not be created. Please try again.")}
        </p>
      )}
      <div className="md:col-span-2">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating..." : "Create tournament"}
        </Button>
      </div>
    </form>
  );
}
