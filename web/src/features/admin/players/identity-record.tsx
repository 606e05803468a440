// A player's identity verification in the console: state and the provider's result and
// reference (no document images are stored here), linked accounts, withdrawals refused for the
// holder name, and "Ask to verify again" with a reason for the audit log.
import { useState } from "react";
import { Link } from "react-router";
import { IDENTITY_CONSOLE } from "@common/console-messages";
import { IDENTITY } from "@common/messages";
import { formatDollars } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Loaded, Section } from "../components/section";
import { ConfirmWithNoteDialog } from "../components/confirm-note-dialog";
import { useAskToVerifyAgain, usePlayerIdentity } from "./api";

const when = (iso: string) => new Date(iso).toLocaleString();

export function IdentityRecord({ id, username }: { id: number; username: string }) {
  const identity = usePlayerIdentity(id);
  const ask = useAskToVerifyAgain(id);
  const [asking, setAsking] = useState(false);
  return (
    <Section title={IDENTITY_CONSOLE.title}>
      <Loaded query={identity} empty={() => false}>
        {(v) => (
          <div className="space-y-3 text-sm">
            <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.state}: </dt>
                <dd className="inline" data-testid="admin-identity-state">
                  {IDENTITY.stateLabel[v.state]}
                  {v.verifyAgain ? ` (${IDENTITY_CONSOLE.askedAgain})` : ""}
                </dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.result}: </dt>
                <dd className="inline">{v.reason ?? (v.state === "verified" ? "verified" : "—")}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.provider}: </dt>
                <dd className="inline">{v.provider ?? "—"}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.reference}: </dt>
                <dd className="inline break-all font-mono">{v.reference ?? "—"}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.legalName}: </dt>
                <dd className="inline">{v.legalName ?? "—"}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.dateOfBirth}: </dt>
                <dd className="inline">{v.dateOfBirth ?? "—"}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.documentCountry}: </dt>
                <dd className="inline">{v.documentCountry ?? "—"}</dd>
              </div>
              <div>
                <dt className="inline text-muted-foreground">{IDENTITY_CONSOLE.verifiedCount}: </dt>
                <dd className="inline">{v.verifiedCount}</dd>
              </div>
            </dl>
            <p className="text-muted-foreground">{IDENTITY_CONSOLE.noImages}</p>
            {v.duplicateOf && (
              <p>
                {IDENTITY_CONSOLE.duplicateOf}: <Link to={`/admin/players/${v.duplicateOf.id}`}>{v.duplicateOf.username}</Link>
              </p>
            )}
            {v.linkedAccounts.length > 0 && (
              <p>
                {IDENTITY_CONSOLE.linkedAccounts}:{" "}
                {v.linkedAccounts.map((a, i) => (
                  <span key={a.id}>
                    {i > 0 && ", "}
                    <Link to={`/admin/players/${a.id}`}>{a.username}</Link>
                  </span>
                ))}
              </p>
            )}
            <div>
              <h3 className="font-medium">{IDENTITY_CONSOLE.nameMismatches}</h3>
              {v.nameMismatches.length === 0 ? (
                <p className="text-muted-foreground">{IDENTITY_CONSOLE.noMismatches}</p>
              ) : (
                <ul aria-label={IDENTITY_CONSOLE.nameMismatches}>
                  {v.nameMismatches.map((m) => (
                    <li key={m.at + m.holderName}>
                      {when(m.at)}: “{m.holderName}” (legal name {m.legalName}), {formatDollars(m.amount)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {(v.verifiedCount > 0 || v.state === "refused") && !v.verifyAgain && (
              <Button variant="outline" onClick={() => setAsking(true)}>
                {IDENTITY_CONSOLE.askAgain}
              </Button>
            )}
          </div>
        )}
      </Loaded>
      {asking && (
        <ConfirmWithNoteDialog
          open
          onOpenChange={(o) => !o && setAsking(false)}
          title={`${IDENTITY_CONSOLE.askAgain}: ${username}`}
          description={IDENTITY_CONSOLE.askedAgain}
          noteRequired
          noteLabel={IDENTITY_CONSOLE.askAgainNote}
          confirmLabel={IDENTITY_CONSOLE.askAgain}
          pending={ask.isPending}
          onConfirm={(note) =>
            ask.mutate(note, {
              onSuccess: (res) => {
                toast.success(res.message);
                setAsking(false);
              },
              onError: (err) => toast.error("Could not ask", errorMessage(err)),
            })
          }
        />
      )}
    </Section>
  );
}
