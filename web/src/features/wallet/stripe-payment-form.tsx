// Stripe's Payment Element. Loaded lazily, and Stripe.js itself only once this renders, so
// the sandbox (local dev, tests) never contacts Stripe.
import { useState, type FormEvent } from "react";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { Button } from "@/components/ui/button";
import { useTheme } from "@/lib/theme";
import { toast } from "@/lib/toast";

const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (publishableKey: string) => {
  let p = loaded.get(publishableKey);
  if (!p) {
    p = loadStripe(publishableKey);
    loaded.set(publishableKey, p);
  }
  return p;
};

export default function StripePaymentForm({
  publishableKey,
  clientSecret,
  amountLabel,
}: {
  publishableKey: string;
  clientSecret: string;
  amountLabel: string;
}) {
  const { theme } = useTheme();
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret, appearance: { theme: theme === "light" ? "stripe" : "night" } }}>
      <PaymentForm amountLabel={amountLabel} />
    </Elements>
  );
}

function PaymentForm({ amountLabel }: { amountLabel: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    try {
      // On success Stripe redirects to the result page with the intent in the query.
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/payment-success` },
      });
      if (error) toast.error("Payment Failed", error.message ?? "An unexpected error occurred");
    } catch {
      toast.error("Payment Failed", "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Card details">
      <PaymentElement />
      <Button type="submit" className="w-full" size="lg" disabled={!stripe || !elements || busy}>
        {busy ? "Processing..." : `Pay ${amountLabel}`}
      </Button>
    </form>
  );
}
