// /terms, /rules and /privacy: a legal document as in force, with its version and effective date
// (docs/player-data.md). Public: anyone can read what they would agree to before signing up.
import { useLocation } from "react-router";
import { LEGAL_CATALOG } from "@common/legal/legal-catalog";
import { LEGAL } from "@common/legal-messages";
import { LegalText } from "@/components/legal-text";
import { PageSpinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { useLegalDocument } from "./api";

export default function LegalPage() {
  const { pathname } = useLocation();
  const entry = LEGAL_CATALOG.find((d) => d.path === pathname) ?? LEGAL_CATALOG[0]!;
  const doc = useLegalDocument(entry.id);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      {doc.isLoading && <PageSpinner />}
      {doc.isError && (
        <div role="alert">
          <h1 className="text-3xl font-bold">{entry.title}</h1>
          <p className="mt-4 text-destructive">{errorMessage(doc.error, "Could not load this document. Please try again.")}</p>
        </div>
      )}
      {doc.data && (
        <>
          <p className="mb-6 text-sm text-muted-foreground">{LEGAL.version(doc.data.version, doc.data.effectiveDate)}</p>
          <LegalText text={doc.data.text} />
        </>
      )}
    </article>
  );
}
