// The legal documents' pure rules (docs/player-data.md): filling a text's {{NAME}} placeholders,
// which documents a player still has to accept, whether an acceptance names the versions in
// force, and splitting a text into blocks the web app renders as elements (never as HTML).
import {
  CORRECT_ANSWER_POINTS,
  DEFAULT_MIN_AGE,
  MAX_SPEED_BONUS,
  MIN_PLAYERS_PAID,
  PLATFORM_FEE_SHARE,
  PRIZE_SHARES_BPS,
  QUESTION_TIME_MS,
  QUESTIONS_PER_TOURNAMENT,
} from "../spec";
import { POOL_PERCENT } from "./prizes";
import { parseRegionAges, parseRegionList } from "./responsible-play";

/** What the deployment says, as the page is served. */
export interface LegalSettings {
  barredRegions: string | undefined;
  regionMinAges: string | undefined;
  supportEmail: string | undefined;
}

const ordinal = ["1st", "2nd", "3rd"];

/** Every placeholder the documents may use, from the settings and the product's constants. */
export function legalValues(s: LegalSettings): Record<string, string> {
  const barred = parseRegionList(s.barredRegions);
  const ages = [...parseRegionAges(s.regionMinAges)].filter(([, age]) => age > DEFAULT_MIN_AGE);
  return {
    BARRED_REGIONS: barred.length > 0 ? barred.join(", ") : "none at present",
    REGION_MIN_AGES: ages.length > 0 ? ages.map(([code, age]) => `${code}: ${age}`).join(", ") : "none at present",
    SUPPORT_EMAIL: s.supportEmail?.trim() || "the support address on our Contact page",
    POOL_PERCENT: String(POOL_PERCENT),
    HOUSE_PERCENT: String(Math.round(PLATFORM_FEE_SHARE * 100)),
    PRIZE_SHARES: PRIZE_SHARES_BPS.map((bps, i) => `${bps / 100}% (${ordinal[i] ?? `${i + 1}th`})`).join(", "),
    MIN_PLAYERS_PAID: String(MIN_PLAYERS_PAID),
    QUESTIONS_PER_TOURNAMENT: String(QUESTIONS_PER_TOURNAMENT),
    QUESTION_SECONDS: String(QUESTION_TIME_MS / 1000),
    CORRECT_POINTS: String(CORRECT_ANSWER_POINTS),
    MAX_SPEED_BONUS: String(MAX_SPEED_BONUS),
  };
}

/** The text with each {{NAME}} replaced; a name without a value is a mistake in the document and throws. */
export function fillLegalText(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`legal text names an unknown placeholder {{${name}}}`);
    return value;
  });
}

/** The documents whose version in force the player has not accepted, in the order given. */
export function outstandingDocuments<Id extends string>(
  current: Readonly<Record<Id, string>>,
  accepted: readonly { document: string; version: string }[],
): Id[] {
  return (Object.keys(current) as Id[]).filter((id) => !accepted.some((a) => a.document === id && a.version === current[id]));
}

/**
 * The documents an acceptance gets wrong: each one it leaves out or names with another version
 * than the one in force (a page read before a new version came out). Empty: accept it.
 */
export function staleDocuments<Id extends string>(
  current: Readonly<Record<Id, string>>,
  offered: Readonly<Record<string, string | undefined>>,
): Id[] {
  return (Object.keys(current) as Id[]).filter((id) => offered[id] !== current[id]);
}

export type LegalBlock =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; items: string[] };

/**
 * The few shapes the documents use: `#`/`##`/`###` headings, paragraphs (blank-line separated),
 * `- ` and `1. ` lists. Plain text goes in and plain strings come out, so nothing in a text can
 * become markup.
 */
export function parseLegalText(text: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
    paragraph = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^(?:(-)|\d+\.)\s+(.*)$/.exec(line);
    if (line === "") flush();
    else if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (item) {
      flush();
      const ordered = item[1] === undefined;
      const last = blocks.at(-1);
      if (last?.kind === "list" && last.ordered === ordered) last.items.push(item[2]!);
      else blocks.push({ kind: "list", ordered, items: [item[2]!] });
    } else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** A line's `**bold**` runs, as text segments. */
export function inlineSegments(text: string): { text: string; bold: boolean }[] {
  return text
    .split(/(\*\*[^*]+\*\*)/)
    .filter((s) => s !== "")
    .map((s) => (s.startsWith("**") && s.endsWith("**") && s.length > 4 ? { text: s.slice(2, -2), bold: true } : { text: s, bold: false }));
}
