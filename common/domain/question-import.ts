// An operator's question file (CSV or JSON) to the rows worth importing and a report of the rest.
// Pure: the Worker stores what this accepts. Row numbers are what the operator sees: the line a
// CSV record starts on (the header is line 1), or the 1-based position of a JSON array item.
import { QUESTION_IMPORT as MSG } from "../console-messages";
import { OPTIONS_PER_QUESTION, QUESTION_TEXT_MAX, QUESTION_TEXT_MIN } from "../spec";

export type QuestionImportFormat = "csv" | "json";

export interface ImportedQuestion {
  row: number;
  category: string;
  question: string;
  options: string[];
  /** Exactly one of `options` (its spelling there). */
  correctAnswer: string;
  difficulty: 1 | 2 | 3;
  explanation: string;
}

export interface RejectedRow {
  /** 0 means the file as a whole. */
  row: number;
  reasons: string[];
}

export interface QuestionImportResult {
  accepted: ImportedQuestion[];
  rejected: RejectedRow[];
}

interface RawRow {
  row: number;
  category: unknown;
  question: unknown;
  options: unknown[];
  correctAnswer: unknown;
  difficulty: unknown;
  explanation: unknown;
}

export function parseQuestionImport(
  format: QuestionImportFormat,
  content: string,
  knownCategories: readonly string[],
): QuestionImportResult {
  const raw = format === "csv" ? csvRows(content) : jsonRows(content);
  if ("error" in raw) return { accepted: [], rejected: [raw.error] };
  const accepted: ImportedQuestion[] = [];
  const rejected: RejectedRow[] = [...raw.rejected];
  const firstRowOf = new Map<string, number>();
  for (const r of raw.rows) {
    const checked = checkRow(r, knownCategories);
    if ("reasons" in checked) {
      rejected.push(checked);
      continue;
    }
    const key = `${checked.category}\n${checked.question}`;
    const first = firstRowOf.get(key);
    if (first !== undefined) {
      rejected.push({ row: r.row, reasons: [MSG.duplicate(first)] });
      continue;
    }
    firstRowOf.set(key, r.row);
    accepted.push(checked);
  }
  rejected.sort((a, b) => a.row - b.row);
  return { accepted, rejected };
}

/** One question from an operator's form, checked by the same rules as an imported row. */
export function checkQuestion(
  q: { category: string; question: string; options: readonly string[]; correctAnswer: string; difficulty: number; explanation: string },
  knownCategories: readonly string[],
): Omit<ImportedQuestion, "row"> | { reasons: string[] } {
  const checked = checkRow({ row: 0, ...q, options: [...q.options] }, knownCategories);
  if ("reasons" in checked) return { reasons: checked.reasons };
  const { row: _row, ...question } = checked;
  return question;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

function checkRow(r: RawRow, known: readonly string[]): ImportedQuestion | RejectedRow {
  const reasons: string[] = [];
  const category = text(r.category);
  if (!known.includes(category)) reasons.push(MSG.category(category, known));
  const question = text(r.question);
  if (question.length < QUESTION_TEXT_MIN || question.length > QUESTION_TEXT_MAX)
    reasons.push(MSG.questionLength(QUESTION_TEXT_MIN, QUESTION_TEXT_MAX, question.length));

  const options = r.options.map(text);
  if (options.length !== OPTIONS_PER_QUESTION) reasons.push(MSG.optionCount(options.length));
  options.forEach((o, i) => {
    if (!o) reasons.push(MSG.optionEmpty(i + 1));
  });
  const seen = new Set<string>();
  for (const o of options.filter(Boolean)) {
    const folded = o.toLowerCase();
    if (seen.has(folded)) reasons.push(MSG.optionRepeated(o));
    seen.add(folded);
  }

  const answer = text(r.correctAnswer);
  const correct = options.find((o) => o && o.toLowerCase() === answer.toLowerCase());
  if (!answer) reasons.push(MSG.correctEmpty);
  else if (correct === undefined) reasons.push(MSG.correctNotAnOption(answer));

  const difficultyText = text(r.difficulty);
  const difficulty = /^[1-3]$/.test(difficultyText) ? (Number(difficultyText) as 1 | 2 | 3) : null;
  if (difficulty === null) reasons.push(MSG.difficulty(difficultyText));

  const explanation = text(r.explanation);
  if (!explanation) reasons.push(MSG.explanationEmpty);

  if (reasons.length > 0 || correct === undefined || difficulty === null) return { row: r.row, reasons };
  return { row: r.row, category, question, options, correctAnswer: correct, difficulty, explanation };
}

function jsonRows(content: string): { rows: RawRow[]; rejected: RejectedRow[] } | { error: RejectedRow } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (e) {
    return { error: { row: 0, reasons: [MSG.notJson(e instanceof Error ? e.message : String(e))] } };
  }
  if (!Array.isArray(parsed)) return { error: { row: 0, reasons: [MSG.notArray] } };
  const rows: RawRow[] = [];
  const rejected: RejectedRow[] = [];
  parsed.forEach((item: unknown, i) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      rejected.push({ row: i + 1, reasons: [MSG.notObject] });
      return;
    }
    const o = item as Record<string, unknown>;
    rows.push({
      row: i + 1,
      category: o.category,
      question: o.question,
      options: Array.isArray(o.options) ? o.options : [],
      correctAnswer: o.correctAnswer,
      difficulty: o.difficulty,
      explanation: o.explanation,
    });
  });
  return { rows, rejected };
}

/** The columns a CSV header may name; four option columns by letter, by number, or all named "options". */
const OPTION_COLUMNS = [
  ["option_a", "option_b", "option_c", "option_d"],
  ["option_1", "option_2", "option_3", "option_4"],
] as const;
const REQUIRED = ["category", "question", "correct_answer", "difficulty", "explanation"] as const;

function csvRows(content: string): { rows: RawRow[]; rejected: RejectedRow[] } | { error: RejectedRow } {
  const records = parseCsv(content);
  if ("unclosedAt" in records) return { error: { row: records.unclosedAt, reasons: [MSG.csvUnclosedQuote] } };
  const nonBlank = records.filter((r) => !(r.fields.length === 1 && r.fields[0]!.trim() === ""));
  const [header, ...body] = nonBlank;
  if (!header || body.length === 0) return { error: { row: 0, reasons: [MSG.csvEmpty] } };

  const names = header.fields.map((f) => f.trim().toLowerCase());
  const missing: string[] = REQUIRED.filter((n) => !names.includes(n));
  const byName = OPTION_COLUMNS.find((set) => set.every((n) => names.includes(n)));
  const optionIndexes = byName ? byName.map((n) => names.indexOf(n)) : names.flatMap((n, i) => (n === "options" ? [i] : []));
  if (optionIndexes.length !== OPTIONS_PER_QUESTION) missing.push("option_a, option_b, option_c, option_d (or four columns named options)");
  if (missing.length > 0) return { error: { row: header.line, reasons: [MSG.csvMissingColumns(missing)] } };

  const at = (fields: string[], name: string) => fields[names.indexOf(name)];
  const rows: RawRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const { line, fields } of body) {
    if (fields.length !== names.length) {
      rejected.push({ row: line, reasons: [MSG.csvFieldCount(fields.length, names.length)] });
      continue;
    }
    rows.push({
      row: line,
      category: at(fields, "category"),
      question: at(fields, "question"),
      options: optionIndexes.map((i) => fields[i]),
      correctAnswer: at(fields, "correct_answer"),
      difficulty: at(fields, "difficulty"),
      explanation: at(fields, "explanation"),
    });
  }
  return { rows, rejected };
}

/**
 * RFC 4180: fields separated by commas, records by CRLF or LF; a field in double quotes may hold
 * commas, line breaks and doubled quotes. Each record keeps the line it starts on.
 */
export function parseCsv(content: string): { line: number; fields: string[] }[] | { unclosedAt: number } {
  const text = content.replace(/^\uFEFF/, "");
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field.trim() === "") {
      quoted = true;
      quoteLine = line;
      field = "";
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
      endRecord();
      if (ch === "\r") i++;
      line++;
      recordLine = line;
    } else field += ch;
    i++;
  }
  if (quoted) return { unclosedAt: quoteLine };
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}
