// The legal documents players read and accept: the one place their current versions live. Each
// text is in its own module (terms-of-service.ts, official-rules.ts, privacy-policy.ts); a new
// version there is what asks every player to accept again (docs/player-data.md). Worker only:
// the web app reads the texts through GET /api/legal/:doc and the titles from legal-catalog.ts.
import { LEGAL_CATALOG, type LegalDocumentId } from "./legal-catalog";
import { OFFICIAL_RULES } from "./official-rules";
import { PRIVACY_POLICY } from "./privacy-policy";
import { TERMS_OF_SERVICE } from "./terms-of-service";

export interface LegalDocument {
  id: LegalDocumentId;
  title: string;
  version: string;
  /** ISO date (YYYY-MM-DD). */
  effectiveDate: string;
  /** Markdown-like text with {{NAME}} placeholders (common/domain/legal.ts). */
  body: string;
}

const texts = { terms: TERMS_OF_SERVICE, rules: OFFICIAL_RULES, privacy: PRIVACY_POLICY } as const;

export const LEGAL_DOCUMENTS: Readonly<Record<LegalDocumentId, LegalDocument>> = Object.fromEntries(
  LEGAL_CATALOG.map((d) => [d.id, { id: d.id, title: d.title, ...texts[d.id] }]),
) as Record<LegalDocumentId, LegalDocument>;

/** The version of each document in force now. */
export const CURRENT_LEGAL_VERSIONS: Readonly<Record<LegalDocumentId, string>> = Object.fromEntries(
  LEGAL_CATALOG.map((d) => [d.id, texts[d.id].version]),
) as Record<LegalDocumentId, string>;
