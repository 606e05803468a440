import { formatDollars } from "@common/domain/money";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { Link, Navigate, useParams } from "react-router";
import { AlertCircle, CreditCard, Lock } from "lucide-react";
import { MONEY } from "@common/messages";
import type { CreatePaymentIntentResponse } from "@common/api/money";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { newIdempotencyKey } from "@/lib/api-client";
import { DateOfBirthForm } from "@/components/date-of-birth-form";
import { RESPONSIBLE_UI } from "@common/messages";
import { createPaymentIntent, usePaymentConfig } from "./api";
import { amountFromParam } from "./route-amount";
import { SandboxCardForm } from "./sandbox-card-form";

const StripePaymentForm = lazy(() => import("./stripe-payment-form"));

/** Redirect to the dashboard when the amount is missing or not positive. */
export default function CheckoutPage() {
  const amount = amountFromParam(useParams().amount);
  if (amount === null) return <Navigate to="/dashboard" replace />;
  return <Checkout key={amount} amount={amount} />;
}

type IntentState =
  | { status: "loading" }
  | { status: "ready"; intent: CreatePaymentIntentResponse }
  | { status: "error"; message: string }
  /** The first deposit waits for the date of birth; then the intent is asked for again. */
  | { status: "needs_date_of_birth" };

function Checkout({ amount }: { amount: number }) {
  const config = usePaymentConfig();
  // A site that takes no cards says so before any payment is started.
  if (config.data?.paymentProvider === null) return <PaymentsUnavailable />;
  if (config.data || config.isError) return <CardCheckout amount={amount} />;
  return <Preparing />;
}

function CardCheckout({ amount }: { amount: number }) {
  const config = usePaymentConfig();
  const [intent, setIntent] = useState<IntentState>({ status: "loading" });
  // One key per checkout visit: a double effect or a retried request gets the same PaymentIntent.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const requested = useRef(false);

  const request = useCallback(() => {
    createPaymentIntent(amount, idempotencyKey).then(
      (res) => setIntent({ status: "ready", intent: res }),
      (error: unknown) =>
        setIntent(
          error instanceof ApiError && error.code === "date_of_birth_required"
            ? { status: "needs_date_of_birth" }
            : { status: "error", message: errorMessage(error, "Failed to create payment intent") },
        ),
    );
  }, [amount, idempotencyKey]);

  useEffect(() => {
    // StrictMode runs effects twice; the intent is created once.
    if (requested.current) return;
    requested.current = true;
    request();
  }, [request]);

  const amountLabel = formatDollars(amount);

  if (intent.status === "needs_date_of_birth") {
    return (
      <div className="mx-auto max-w-lg px-4 py-10">
        <Card>
          <CardHeader>
            <CardTitle className="text-2xl">{RESPONSIBLE_UI.dateOfBirthTitle}</CardTitle>
            <CardDescription>{RESPONSIBLE_UI.dateOfBirthWhy}</CardDescription>
          </CardHeader>
          <CardContent>
            <DateOfBirthForm
              onSaved={() => {
                setIntent({ status: "loading" });
                request();
              }}
            />
          </CardContent>
        </Card>
      </div>
    );
  }

  if (intent.status === "error") return <PaymentError message={intent.message} />;
  if (config.isError) return <PaymentError message={errorMessage(config.error, "Failed to load the payment settings")} />;
  if (intent.status === "loading" || !config.data) return <Preparing />;

  const { paymentProvider, stripePublishableKey } = config.data;
  if (paymentProvider === null) return <PaymentsUnavailable />;
  if (paymentProvider === "stripe" && !stripePublishableKey) return <PaymentError message="Card payments are not configured." />;

  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Checkout</CardTitle>
          <CardDescription>Add funds to your Trivia Arena balance.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="flex items-center justify-between rounded-lg bg-muted p-4">
            <dt className="text-sm text-muted-foreground">Deposit amount</dt>
            <dd className="text-2xl font-bold">{amountLabel}</dd>
          </dl>
          {paymentProvider === "stripe" ? (
            <Suspense fallback={<Spinner label="Loading the payment form" />}>
              <StripePaymentForm
                publishableKey={stripePublishableKey!}
                clientSecret={intent.intent.clientSecret}
                amountLabel={amountLabel}
              />
            </Suspense>
          ) : (
            <SandboxCardForm clientSecret={intent.intent.clientSecret} amountLabel={amountLabel} />
          )}
          <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
            <Lock className="h-3 w-3" aria-hidden /> Card details go to the payment provider only; nothing is stored on Trivia Arena.
          </p>
          <Button variant="ghost" className="w-full" asChild>
            <Link to="/dashboard">Cancel</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

function Preparing() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3">
      <Spinner label="Preparing your payment" />
      <p className="text-sm text-muted-foreground">Preparing your payment...</p>
    </div>
  );
}

function PaymentsUnavailable() {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card>
        <CardHeader className="items-center text-center">
          <CreditCard className="h-12 w-12 text-muted-foreground" aria-hidden />
          <CardTitle className="text-2xl">{MONEY.cardPaymentsUnavailable}</CardTitle>
          <CardDescription>{MONEY.paymentsNotConfigured}</CardDescription>
        </CardHeader>
        <CardContent className="flex justify-center">
          <Button asChild>
            <Link to="/dashboard">Return to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

function PaymentError({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card role="alert">
        <CardHeader className="items-center text-center">
          <AlertCircle className="h-12 w-12 text-destructive" aria-hidden />
          <CardTitle className="text-2xl">Payment Error</CardTitle>
          <CardDescription>{message}</CardDescription>
        </CardHeader>
        <CardContent className="flex justify-center">
          <Button asChild>
            <Link to="/dashboard">Return to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
