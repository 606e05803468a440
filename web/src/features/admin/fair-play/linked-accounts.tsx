// Accounts verified as the same person (docs/identity-and-tax.md, "One person, one account"):
// the first account and the ones linked to it, which play free tournaments only.
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { IDENTITY_CONSOLE } from "@common/console-messages";
import { api, read } from "@/lib/api-client";
import { Loaded, Section } from "../components/section";

const useLinkedAccounts = () =>
  useQuery({ queryKey: ["admin", "identity", "linked-accounts"], queryFn: () => read(api.admin.identity["linked-accounts"].$get()) });

export function LinkedAccounts() {
  const linked = useLinkedAccounts();
  return (
    <Section title={IDENTITY_CONSOLE.linkedTitle}>
      <p className="text-sm text-muted-foreground">{IDENTITY_CONSOLE.linkedIntro}</p>
      <Loaded query={linked} empty={(d) => d.groups.length === 0}>
        {(d) => (
          <ul className="divide-y divide-border" aria-label={IDENTITY_CONSOLE.linkedTitle}>
            {d.groups.map((g) => (
              <li key={g.first.id} className="py-2 text-sm">
                <Link to={`/admin/players/${g.first.id}`} className="font-medium">
                  {g.first.username}
                </Link>{" "}
                (first) linked with{" "}
                {g.linked.map((a, i) => (
                  <span key={a.id}>
                    {i > 0 && ", "}
                    <Link to={`/admin/players/${a.id}`}>{a.username}</Link>
                  </span>
                ))}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </Section>
  );
}
