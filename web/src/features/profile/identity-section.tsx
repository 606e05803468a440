// The profile's "Identity" tab (docs/identity-and-tax.md): the verification state the player is
// in, the provider's reason when it needs another try or was refused, and the button that runs
// the check: Stripe.js's verification modal, or the sandbox's local page.
import { useState } from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { BadgeCheck, IdCard } from "lucide-react";
import type { IdentityState } from "@common/api/identity";
import { IDENTITY } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageSpinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { usePublicConfig } from "@/lib/config";
import { IDENTITY_KEY, useIdentity } from "@/lib/identity";
import { toast } from "@/lib/toast";
import { useStartIdentity } from "./identity-api";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium" });

export function IdentitySection() {
  const identity = useIdentity();
  if (identity.isError) return <p role="alert">{errorMessage(identity.error)}</p>;
  if (!identity.data) return <PageSpinner />;
  return <IdentityCard state={identity.data} />;
}

export function IdentityCard({ state }: { state: IdentityState }) {
  const start = useStartIdentity();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const config = usePublicConfig().data;
  const [running, setRunning] = useState(false);

  const verify = () =>
    start.mutate(undefined, {
      onSuccess: async (session) => {
        if (session.provider === "sandbox" && session.url) {
          navigate(session.url);
          return;
        }
        if (!session.clientSecret || !config?.stripePublishableKey) {
          toast.error("Identity verification", IDENTITY.notConfigured);
          return;
        }
        setRunning(true);
        try {
          // Stripe.js only now, so the sandbox never contacts Stripe.
          const { loadStripe } = await import("@stripe/stripe-js/pure");
          const stripe = await loadStripe(config.stripePublishableKey);
          const result = await stripe?.verifyIdentity(session.clientSecret);
          if (result?.error) toast.error("Identity verification", result.error.message ?? IDENTITY.notConfigured);
        } finally {
          setRunning(false);
          await qc.invalidateQueries({ queryKey: IDENTITY_KEY });
        }
      },
      onError: (error) => toast.error("Identity verification", errorMessage(error)),
    });

  const label = IDENTITY.stateLabel[state.state];
  const showStart = state.canStart;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <IdCard className="h-5 w-5" aria-hidden /> {IDENTITY.title}
        </CardTitle>
        <CardDescription>{IDENTITY.intro}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <p>
          Status:{" "}
          <strong data-testid="identity-state" className="inline-flex items-center gap-1">
            {state.state === "verified" && <BadgeCheck className="h-4 w-4 text-green-600" aria-hidden />}
            {label}
          </strong>
        </p>
        {state.legalName && (
          <p>
            {IDENTITY.verifiedAs(state.legalName)}
            {state.verifiedAt ? ` (${when(state.verifiedAt)})` : ""}
          </p>
        )}
        {state.state === "pending" && <p className="text-muted-foreground">{IDENTITY.pending}</p>}
        {state.state === "requires_input" && <p role="alert">{IDENTITY.requiresInput(state.reason)}</p>}
        {state.state === "refused" && !state.canStart && <p role="alert">{IDENTITY.refused(state.reason)}</p>}
        {state.verifyAgain && <p role="alert">{IDENTITY.verifyAgainNote}</p>}
        {state.duplicateAccount && <p role="alert">{IDENTITY.duplicateNote}</p>}
        {showStart && (
          <Button onClick={verify} disabled={start.isPending || running}>
            {start.isPending || running
              ? "Opening..."
              : state.state === "requires_input" || state.verifyAgain || state.state === "pending"
                ? IDENTITY.tryAgain
                : IDENTITY.start}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
