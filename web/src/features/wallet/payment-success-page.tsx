import { formatDollars } from "@common/domain/money";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { AlertTriangle, CheckCircle2, Receipt, Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { useConfirmDeposit, usePaymentIntent } from "./api";

type Result =
  | { state: "none" }
  | { state: "loading" }
  | { state: "success"; amount: number }
  | { state: "refunded"; reason: string }
  | { state: "error"; reason: string };

/**
 * The page both providers return to. The payment is read back from the server, then the
 * deposit is confirmed there; the server credits a payment once, so a reload is harmless.
 */
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const clientSecret = params.get("payment_intent_client_secret");
  const intent = usePaymentIntent(clientSecret);
  const { mutate: confirmDeposit } = useConfirmDeposit();
  const [confirmed, setConfirmed] = useState<Result | null>(null);
  const sent = useRef<string | null>(null);

  const data = intent.data;
  useEffect(() => {
    if (!data || data.status !== "succeeded" || sent.current === data.id) return;
    // StrictMode runs effects twice; one confirmation per payment is enough.
    sent.current = data.id;
    confirmDeposit(
      { paymentIntentId: data.id, amount: data.amount },
      {
        onSuccess: () => setConfirmed({ state: "success", amount: data.amount }),
        onError: (error) => {
          const detail = error instanceof ApiError ? error.serverMessage : undefined;
          // Refused when it arrived (a limit, a break…): the server says why and that it goes back to the card.
          if (error instanceof ApiError && error.code === "deposit_refunded")
            return setConfirmed({ state: "refunded", reason: error.message });
          setConfirmed({ state: "error", reason: detail ? `Failed to confirm deposit: ${detail}` : "Failed to confirm deposit" });
        },
      },
    );
  }, [data, confirmDeposit]);

  const result: Result =
    // Opened without a payment (the footer's Payment Status link): nothing went wrong, there is just nothing to show.
    clientSecret === null
      ? { state: "none" }
      : intent.isError
        ? { state: "error", reason: errorMessage(intent.error, "The payment could not be retrieved.") }
        : data && data.status !== "succeeded"
          ? { state: "error", reason: `Payment status: ${data.status.replace(/_/g, " ")}.` }
          : (confirmed ?? { state: "loading" });

  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      {result.state === "none" ? (
        <ResultCard
          icon={<Receipt className="h-14 w-14 text-muted-foreground" aria-hidden />}
          title="Payment Status"
          description="There is no payment to show here. After a card deposit this page shows its result; every deposit is listed under Transaction History."
          actions={[
            ["/dashboard?tab=transactions", "View Transactions"],
            ["/dashboard", "Return to Dashboard"],
          ]}
        />
      ) : result.state === "loading" ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 p-10 text-center">
            <Spinner label="Confirming your payment" />
            <p className="text-muted-foreground">Confirming your payment...</p>
          </CardContent>
        </Card>
      ) : result.state === "success" ? (
        <ResultCard
          role="status"
          icon={<CheckCircle2 className="h-14 w-14 text-success" aria-hidden />}
          title="Deposit Successful"
          description={`${formatDollars(result.amount)} has been added to your account.`}
          actions={[
            ["/dashboard", "Go to Dashboard"],
            ["/dashboard?tab=transactions", "View Transactions"],
          ]}
        />
      ) : result.state === "refunded" ? (
        <ResultCard
          role="alert"
          icon={<Undo2 className="h-14 w-14 text-warning" aria-hidden />}
          title="Payment Refunded"
          description={result.reason}
          actions={[
            ["/profile", "Responsible play settings"],
            ["/dashboard?tab=transactions", "View Transactions"],
          ]}
        />
      ) : (
        <ResultCard
          role="alert"
          icon={<AlertTriangle className="h-14 w-14 text-warning" aria-hidden />}
          title="Payment Issue Detected"
          description="Your payment may not have been processed. Please check your account or try again."
          detail={result.reason}
          actions={[
            ["/dashboard?tab=transactions", "Check Transactions"],
            ["/dashboard", "Return to Dashboard"],
          ]}
        />
      )}
    </div>
  );
}

/** One outcome: its icon, title and text, then a main link and a second one (outlined). */
function ResultCard({
  role,
  icon,
  title,
  description,
  detail,
  actions: [main, second],
}: {
  role?: "status" | "alert";
  icon: ReactNode;
  title: string;
  description: string;
  detail?: string;
  actions: [[string, string], [string, string]];
}) {
  return (
    <Card role={role}>
      <CardHeader className="items-center text-center">
        {icon}
        <CardTitle className="text-2xl">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
        {detail && <p className="mt-2 text-sm text-muted-foreground">{detail}</p>}
      </CardHeader>
      <CardContent className="flex flex-col justify-center gap-2 sm:flex-row">
        <Button asChild>
          <Link to={main[0]}>{main[1]}</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to={second[0]}>{second[1]}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
