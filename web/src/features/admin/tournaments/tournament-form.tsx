// Create or edit a tournament: the rules of the create API, a question picker over the bank
// (searched in the category's unretired questions) or a random draw. The server validates
// everything again; its refusal is shown as it words it.
import { useMemo, useState, type FormEvent } from "react";
import type { CreateTournamentInput } from "@common/api/admin";
import type { AdminTournamentDetail } from "@common/api/admin-tournaments";
import { DIFFICULTY_RAMP } from "@common/spec";
import { useCategories } from "@/lib/categories";
import { errorMessage } from "@/lib/api";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/input";
import { useQuestionBank } from "./api";

const QUESTION_COUNT = DIFFICULTY_RAMP.length;

/** A date as the datetime-local input wants it, in the browser's time zone. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

interface FormState {
  title: string;
  description: string;
  categoryId: string;
  format: "" | "self_paced" | "live_show";
  isFree: boolean;
  entryFee: string;
  prizePool: string;
  maxParticipants: string;
  minLevel: string;
  start: string;
  durationMinutes: string;
  pick: boolean;
  questionIds: number[];
  /** Create only: announce it as a featured event (an existing one is featured from its page). */
  featured: boolean;
  /** Featured: when registration opens for everyone; empty for the default, 72 h before the start. */
  registrationOpens: string;
}

const initial = (t?: AdminTournamentDetail): FormState =>
  t
    ? {
        title: t.title,
        description: t.description,
        categoryId: String(t.categoryId),
        format: t.format,
        isFree: t.isFree,
        entryFee: String(t.entryFee),
        prizePool: String(t.prizePool),
        maxParticipants: t.maxParticipants === null ? "" : String(t.maxParticipants),
        minLevel: String(t.minLevel),
        start: localInput(new Date(t.startTime)),
        durationMinutes: String(t.durationMinutes),
        pick: t.questionDraw === 1,
        questionIds: t.questionDraw === 1 ? t.questions.map((q) => q.id) : [],
        featured: false,
        registrationOpens: "",
      }
    : {
        title: "",
        description: "",
        categoryId: "",
        format: "",
        isFree: false,
        entryFee: "5",
        prizePool: "0",
        maxParticipants: "100",
        minLevel: "1",
        start: localInput(new Date(Date.now() + 24 * 60 * 60_000)),
        durationMinutes: "30",
        pick: false,
        questionIds: [],
        featured: false,
        registrationOpens: "",
      };

/** The request the API takes; numbers stay as typed so the server can name what is wrong. */
function toInput(s: FormState): CreateTournamentInput {
  return {
    title: s.title,
    description: s.description,
    categoryId: Number(s.categoryId),
    entryFee: s.isFree ? 0 : Number(s.entryFee),
    maxParticipants: s.maxParticipants.trim() === "" ? null : Number(s.maxParticipants),
    minLevel: Number(s.minLevel),
    startTime: s.start ? new Date(s.start).toISOString() : "",
    durationMinutes: Number(s.durationMinutes),
    isFree: s.isFree,
    ...(s.isFree ? { prizePool: Number(s.prizePool) } : {}),
    ...(s.format ? { format: s.format } : {}),
    ...(s.pick ? { questionIds: s.questionIds } : {}),
    ...(s.featured
      ? { featured: true, ...(s.registrationOpens ? { registrationOpensAt: new Date(s.registrationOpens).toISOString() } : {}) }
      : {}),
  };
}

export function TournamentForm({
  tournament,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  tournament?: AdminTournamentDetail;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: CreateTournamentInput) => void;
}) {
  const [s, setS] = useState(() => initial(tournament));
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setS((prev) => ({ ...prev, [key]: value }));
  const categories = useCategories();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(toInput(s));
  };

  return (
    // The server checks every rule and names the broken one; the form shows its words.
    <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-2" aria-label={submitLabel}>
      <Field id="t-title" label="Title">
        <Input id="t-title" value={s.title} onChange={(e) => set("title", e.target.value)} required />
      </Field>
      <Field id="t-category" label="Category">
        <Select
          id="t-category"
          value={s.categoryId}
          onChange={(e) => setS((prev) => ({ ...prev, categoryId: e.target.value, questionIds: [] }))}
          required
        >
          <option value="">Choose a category</option>
          {categories.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </Field>
      <div className="md:col-span-2">
        <Field id="t-description" label="Description">
          <Textarea id="t-description" value={s.description} onChange={(e) => set("description", e.target.value)} required />
        </Field>
      </div>
      <Field id="t-format" label="Format">
        <Select id="t-format" value={s.format} onChange={(e) => set("format", e.target.value as FormState["format"])}>
          <option value="">Automatic (live show when paid)</option>
          <option value="self_paced">Self-paced</option>
          <option value="live_show">Live show</option>
        </Select>
      </Field>
      <Field id="t-free" label="Entry">
        <Select id="t-free" value={s.isFree ? "free" : "paid"} onChange={(e) => set("isFree", e.target.value === "free")}>
          <option value="paid">Paid entry</option>
          <option value="free">Free, house-funded pool</option>
        </Select>
      </Field>
      {s.isFree ? (
        <Field id="t-pool" label="House-funded prize pool (USD)">
          <Input id="t-pool" type="number" min="0" step="0.01" value={s.prizePool} onChange={(e) => set("prizePool", e.target.value)} />
        </Field>
      ) : (
        <Field id="t-fee" label="Entry fee (USD)">
          <Input id="t-fee" type="number" min="0" step="0.01" value={s.entryFee} onChange={(e) => set("entryFee", e.target.value)} />
        </Field>
      )}
      <Field id="t-capacity" label="Capacity (empty: unlimited)">
        <Input id="t-capacity" type="number" min="2" value={s.maxParticipants} onChange={(e) => set("maxParticipants", e.target.value)} />
      </Field>
      <Field id="t-level" label="Minimum level">
        <Input id="t-level" type="number" min="1" max="100" value={s.minLevel} onChange={(e) => set("minLevel", e.target.value)} />
      </Field>
      <Field id="t-start" label="Start">
        <Input id="t-start" type="datetime-local" value={s.start} onChange={(e) => set("start", e.target.value)} required />
      </Field>
      <Field id="t-duration" label="Duration (minutes)">
        <Input
          id="t-duration"
          type="number"
          min="1"
          max="240"
          value={s.durationMinutes}
          onChange={(e) => set("durationMinutes", e.target.value)}
        />
      </Field>
      <fieldset className="space-y-2 md:col-span-2">
        <legend className="text-sm font-medium">Questions</legend>
        <label className="mr-4 inline-flex items-center gap-2 text-sm">
          <input type="radio" name="t-questions" checked={!s.pick} onChange={() => set("pick", false)} />
          Random from the category
        </label>
        <label className="inline-flex items-center gap-2 text-sm">
          <input type="radio" name="t-questions" checked={s.pick} onChange={() => set("pick", true)} />
          Pick {QUESTION_COUNT} from the bank
        </label>
        {s.pick && (
          <QuestionPicker
            categoryId={s.categoryId ? Number(s.categoryId) : null}
            picked={s.questionIds}
            onChange={(ids) => set("questionIds", ids)}
          />
        )}
      </fieldset>
      {!tournament && (
        <fieldset className="space-y-2 md:col-span-2">
          <legend className="text-sm font-medium">Featured event</legend>
          <label className="inline-flex items-center gap-2 text-sm">
            <input type="checkbox" checked={s.featured} onChange={(e) => set("featured", e.target.checked)} />
            Announce as a featured event (needs a start at least 7 days away)
          </label>
          {s.featured && (
            <Field
              id="t-registration-opens"
              label="Registration opens for everyone (empty: 72 hours before the start; level 6+ a day earlier)"
            >
              <Input
                id="t-registration-opens"
                type="datetime-local"
                value={s.registrationOpens}
                onChange={(e) => set("registrationOpens", e.target.value)}
              />
            </Field>
          )}
        </fieldset>
      )}
      {error != null && (
        <p role="alert" className="text-sm text-destructive md:col-span-2">
          {errorMessage(error)}
        </p>
      )}
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}

function QuestionPicker({
  categoryId,
  picked,
  onChange,
}: {
  categoryId: number | null;
  picked: number[];
  onChange: (ids: number[]) => void;
}) {
  const bank = useQuestionBank(categoryId);
  const [search, setSearch] = useState("");
  const items = useMemo(() => bank.data?.items ?? [], [bank.data]);
  const byId = useMemo(() => new Map(items.map((q) => [q.id, q])), [items]);
  const needle = search.trim().toLowerCase();
  const found = items.filter((q) => !picked.includes(q.id) && (!needle || q.question.toLowerCase().includes(needle))).slice(0, 20);
  if (categoryId === null) return <p className="text-sm text-muted-foreground">Choose a category first.</p>;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="space-y-2">
        <Input aria-label="Search the bank" placeholder="Search the bank" value={search} onChange={(e) => setSearch(e.target.value)} />
        {bank.isError && <p className="text-sm text-destructive">{errorMessage(bank.error)}</p>}
        <ul aria-label="Bank" className="max-h-64 space-y-1 overflow-y-auto">
          {found.map((q) => (
            <li key={q.id} className="flex items-start justify-between gap-2 text-sm">
              <span>
                {q.question} <span className="text-muted-foreground">(difficulty {q.difficulty})</span>
              </span>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={picked.length >= QUESTION_COUNT}
                onClick={() => onChange([...picked, q.id])}
                aria-label={`Add: ${q.question}`}
              >
                Add
              </Button>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <p className="text-sm font-medium">
          Picked {picked.length} of {QUESTION_COUNT}, in the order they are asked
        </p>
        <ol aria-label="Picked questions" className="list-decimal space-y-1 pl-5 text-sm">
          {picked.map((id) => (
            <li key={id}>
              <span>{byId.get(id)?.question ?? `Question #${id}`}</span>{" "}
              <button
                type="button"
                className="text-destructive underline"
                onClick={() => onChange(picked.filter((x) => x !== id))}
                aria-label={`Remove: ${byId.get(id)?.question ?? id}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
