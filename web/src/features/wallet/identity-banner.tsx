import { Link } from "react-router";
import { IdCard } from "lucide-react";
import { IDENTITY } from "@common/messages";
import { Button } from "@/components/ui/button";
import { useIdentity } from "@/lib/identity";

/**
 * A withdrawal to a bank account needs a verified identity in the holder's name
 * (docs/identity-and-tax.md): until then this says where the player stands and links to the check.
 */
export function IdentityBanner() {
  const state = useIdentity().data;
  if (!state) return null;
  let text: string | null = null;
  if (state.duplicateAccount) text = IDENTITY.duplicateAccount;
  else if (state.verifyAgain) text = IDENTITY.verifyAgainRequired;
  else if (state.state === "not_started") text = IDENTITY.verificationRequired;
  else if (state.state === "pending") text = IDENTITY.pending;
  else if (state.state === "requires_input") text = IDENTITY.requiresInput(state.reason);
  else if (state.state === "refused") text = IDENTITY.refused(state.reason);
  if (text === null) {
    return state.legalName ? (
      <p className="text-sm text-muted-foreground" data-testid="identity-verified-name">
        {IDENTITY.verifiedAs(state.legalName)}: the account holder name must be this name.
      </p>
    ) : null;
  }
  return (
    <section
      aria-label={IDENTITY.title}
      className="flex flex-col gap-3 rounded-lg border border-amber-500/50 bg-amber-500/10 p-4 text-sm sm:flex-row sm:items-center"
    >
      <IdCard className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <div className="flex-1">
        <p className="font-medium">
          {IDENTITY.title}: {IDENTITY.stateLabel[state.state]}
        </p>
        <p className="text-muted-foreground">{text}</p>
      </div>
      {state.canStart && !state.duplicateAccount && (
        <Button variant="outline" size="sm" asChild>
          <Link to="/profile?tab=identity">{IDENTITY.start}</Link>
        </Button>
      )}
    </section>
  );
}
