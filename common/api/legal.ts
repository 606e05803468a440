// The legal documents and a player's acceptance of them (docs/player-data.md).
import { z } from "zod";
import { LEGAL_DOCUMENT_IDS, type LegalDocumentId } from "../legal/legal-catalog";

export const legalDocParamSchema = z.object({ doc: z.enum(LEGAL_DOCUMENT_IDS) });

/** GET /api/legal/:doc: the text as in force, with the deployment's settings filled in. */
export interface LegalDocumentView {
  id: LegalDocumentId;
  title: string;
  version: string;
  effectiveDate: string;
  text: string;
}

/** GET /api/user/terms: the documents in force and which of them the player has yet to accept. */
export interface TermsStatus {
  current: { id: LegalDocumentId; title: string; path: string; version: string; effectiveDate: string }[];
  outstanding: LegalDocumentId[];
}

/** POST /api/user/terms/accept: the version of each document the player was shown. */
export const termsAcceptSchema = z.object({
  versions: z.object(
    Object.fromEntries(LEGAL_DOCUMENT_IDS.map((id) => [id, z.string().max(40).optional()])) as Record<
      LegalDocumentId,
      z.ZodOptional<z.ZodString>
    >,
  ),
});
