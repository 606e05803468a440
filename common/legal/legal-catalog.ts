// Which legal documents there are, their titles and pages: small, so the web app's sign-up form
// and footer can link them without carrying the texts (common/legal/documents.ts has those).
export const LEGAL_DOCUMENT_IDS = ["terms", "rules", "privacy"] as const;
export type LegalDocumentId = (typeof LEGAL_DOCUMENT_IDS)[number];

export const LEGAL_CATALOG: readonly { id: LegalDocumentId; title: string; path: string }[] = [
  { id: "terms", title: "Terms of Service", path: "/terms" },
  { id: "rules", title: "Official Contest Rules", path: "/rules" },
  { id: "privacy", title: "Privacy Policy", path: "/privacy" },
];

export const legalTitle = (id: LegalDocumentId) => LEGAL_CATALOG.find((d) => d.id === id)!.title;
