// The terms dialog itself (components/terms-dialog.tsx mounts it): the documents with a version
// the player has not accepted, to read in place or on their page, and "I agree", which sends the
// versions shown (POST /api/user/terms/accept). The server refuses versions that are no longer
// in force, and the dialog then loads the current ones.
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LEGAL } from "@common/legal-messages";
import { LEGAL_CATALOG } from "@common/legal/legal-catalog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { LegalText } from "@/components/legal-text";
import { ApiError, errorMessage } from "@/lib/api";
import { api, read } from "@/lib/api-client";

const KEY = ["terms-to-accept"] as const;

async function loadOutstanding() {
  const status = await read(api.user.terms.$get());
  const docs = await Promise.all(status.outstanding.map((doc) => read(api.legal[":doc"].$get({ param: { doc } }))));
  return { status, docs };
}

export default function TermsAcceptForm({ open, onFinish }: { open: boolean; onFinish: (accepted: boolean) => void }) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: KEY, queryFn: loadOutstanding, enabled: open, staleTime: 0 });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const finish = (accepted: boolean) => {
    setError(null);
    void qc.removeQueries({ queryKey: KEY });
    onFinish(accepted);
  };

  const accept = async () => {
    if (!query.data) return;
    const shown = new Map(query.data.docs.map((d) => [d.id, d.version]));
    const versions = Object.fromEntries(query.data.status.current.map((d) => [d.id, shown.get(d.id) ?? d.version]));
    setBusy(true);
    setError(null);
    try {
      await read(api.user.terms.accept.$post({ json: { versions } }));
      finish(true);
    } catch (e) {
      setError(errorMessage(e, "Could not record your acceptance"));
      // A newer version came out while this one was read: show the current ones.
      if (e instanceof ApiError && e.code === "terms_version_stale") void query.refetch();
    } finally {
      setBusy(false);
    }
  };

  const docs = query.data?.docs ?? [];
  const nothingLeft = query.data !== undefined && docs.length === 0;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{LEGAL.dialogTitle}</DialogTitle>
          <DialogDescription>{LEGAL.dialogIntro}</DialogDescription>
        </DialogHeader>
        {query.isLoading && <Spinner className="mx-auto my-6 h-6 w-6" />}
        {query.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(query.error, "Could not load the documents")}
          </p>
        )}
        {nothingLeft && <p className="text-sm">{LEGAL.accepted}</p>}
        <div className="space-y-6">
          {docs.map((d) => (
            <section key={d.id} aria-label={d.title} className="rounded-md border border-border">
              <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-border px-4 py-2">
                <h2 className="font-semibold">{d.title}</h2>
                <span className="text-xs text-muted-foreground">{LEGAL.version(d.version, d.effectiveDate)}</span>
              </div>
              <div className="max-h-56 overflow-y-auto px-4 py-3" tabIndex={0}>
                <LegalText text={d.text} headingOffset={1} />
              </div>
              <p className="px-4 py-2 text-xs">
                {/* A plain link: the dialog is mounted beside the router (app/providers.tsx), and a new tab needs none. */}
                <a
                  href={LEGAL_CATALOG.find((c) => c.id === d.id)?.path ?? "/"}
                  target="_blank"
                  rel="noopener"
                  className="text-primary hover:underline"
                >
                  Open the {d.title} in a new tab
                </a>
              </p>
            </section>
          ))}
        </div>
        {error && (
          <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={() => finish(nothingLeft)}>
            {nothingLeft ? "Continue" : LEGAL.notNow}
          </Button>
          {!nothingLeft && (
            <Button type="button" onClick={() => void accept()} disabled={busy || !query.data}>
              {busy ? "Saving..." : LEGAL.acceptButton}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
