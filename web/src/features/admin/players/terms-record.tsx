// A player's acceptances of the terms, official rules and privacy policy in the console: per
// document the version in force and the player's latest acceptance, then every acceptance kept.
import { TERMS_CONSOLE } from "@common/console-messages";
import { Badge } from "@/components/ui/badge";
import { Loaded, Section } from "../components/section";
import { usePlayerTerms } from "./api";

const when = (iso: string) => new Date(iso).toLocaleString();

export function TermsRecord({ id }: { id: number }) {
  const terms = usePlayerTerms(id);
  return (
    <Section title={TERMS_CONSOLE.title}>
      <p className="text-sm text-muted-foreground">{TERMS_CONSOLE.intro}</p>
      <Loaded query={terms} empty={() => false}>
        {(r) => (
          <div className="space-y-3 text-sm">
            <ul className="divide-y divide-border" aria-label={TERMS_CONSOLE.title}>
              {r.documents.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <p className="font-medium">{d.title}</p>
                    <p className="text-muted-foreground">
                      {d.lastAccepted
                        ? TERMS_CONSOLE.accepted(d.lastAccepted.version, when(d.lastAccepted.acceptedAt))
                        : TERMS_CONSOLE.notAccepted}
                      {" · "}
                      {TERMS_CONSOLE.inForce(d.version)}
                    </p>
                  </div>
                  {d.acceptedInForce ? (
                    <Badge variant="success">{TERMS_CONSOLE.upToDate}</Badge>
                  ) : (
                    <Badge variant="destructive">{TERMS_CONSOLE.outstanding}</Badge>
                  )}
                </li>
              ))}
            </ul>
            <details>
              <summary className="cursor-pointer">{TERMS_CONSOLE.history}</summary>
              {r.history.length === 0 ? (
                <p className="mt-2 text-muted-foreground">{TERMS_CONSOLE.historyEmpty}</p>
              ) : (
                <ul className="mt-2 space-y-1" aria-label={TERMS_CONSOLE.history}>
                  {r.history.map((h) => (
                    <li key={`${h.document}-${h.version}`}>
                      {h.title}: {TERMS_CONSOLE.accepted(h.version, when(h.acceptedAt))}
                    </li>
                  ))}
                </ul>
              )}
            </details>
          </div>
        )}
      </Loaded>
    </Section>
  );
}
