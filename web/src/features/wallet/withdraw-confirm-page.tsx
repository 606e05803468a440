import { centsToDollars, dollarsToCents, formatDollars } from "@common/domain/money";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useParams, useSearchParams } from "react-router";
import { AlertCircle, CheckCircle2, CreditCard, Landmark } from "lucide-react";
import { bankAccountSchema, type WithdrawalResponse } from "@common/api/money";
import { MONEY, TAX } from "@common/messages";
import { BANK_ACCOUNT_TYPES } from "@common/spec";
import type { User } from "@common/api/types";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input, Label } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { PageSpinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { ApiError, errorMessage } from "@/lib/api";
import { newIdempotencyKey } from "@/lib/api-client";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useConfirmWithdrawal, useWallet } from "./api";
import { HeldNote } from "./wallet-card";
import { amountFromParam } from "./route-amount";
import { VerifyEmailBanner } from "./verify-email-banner";
import { IdentityBanner } from "./identity-banner";

type AccountType = (typeof BANK_ACCOUNT_TYPES)[number];
const METHOD_LABELS: Record<string, string> = { bank_account: "Bank Account" };

export default function WithdrawConfirmPage() {
  const amount = amountFromParam(useParams().amount);
  const method = useSearchParams()[0].get("method") || "bank_account";
  const { user } = useUser();
  const warned = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice; one toast is enough.
    if (amount !== null || warned.current) return;
    warned.current = true;
    toast.error("Invalid Request", "Missing or invalid withdrawal amount. Please try again.");
  }, [amount]);

  if (amount === null) return <Navigate to="/dashboard" replace />;
  if (!user) return <PageSpinner />;
  return <WithdrawForm key={amount} amount={amount} method={method} user={user} />;
}

function WithdrawForm({ amount, method, user }: { amount: number; method: string; user: User }) {
  const balance = user.balance;
  const navigate = useNavigate();
  // One key per visit of this page: pressing Withdraw again after a timeout cannot withdraw twice.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const withdraw = useConfirmWithdrawal(idempotencyKey);
  const [values, setValues] = useState({
    accountHolderName: "",
    accountNumber: "",
    routingNumber: "",
    accountType: "checking" as AccountType,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const wallet = useWallet().data;
  const amountLabel = formatDollars(amount);
  const [result, setResult] = useState<WithdrawalResponse | null>(null);
  // A US winner past the year's reporting threshold without a W-9: the server's reason, with the way to the form.
  const [taxFormRequired, setTaxFormRequired] = useState<string | null>(null);
  // Closed loop: recent card deposits go back to their cards first, the rest to the bank.
  const cardCents = wallet ? Math.min(dollarsToCents(amount), dollarsToCents(wallet.cardRefundable ?? 0)) : 0;
  const bankCents = dollarsToCents(amount) - cardCents;

  if (result) return <WithdrawalResult result={result} />;

  // After a successful withdrawal the balance drops below the amount; the page is leaving by then.
  if (!withdraw.isSuccess && dollarsToCents(amount) > dollarsToCents(balance)) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16">
        <Card role="alert">
          <CardHeader className="items-center text-center">
            <AlertCircle className="h-12 w-12 text-destructive" aria-hidden />
            <CardTitle className="text-2xl">Insufficient Balance</CardTitle>
            <CardDescription>You don't have enough funds to complete this withdrawal.</CardDescription>
            <p className="mt-2 text-sm text-muted-foreground">
              Requested {amountLabel}; available {formatDollars(balance)}.
            </p>
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

  // Within the balance but above what may leave now: recent deposits are held (the server refuses it too).
  if (!withdraw.isSuccess && wallet && dollarsToCents(amount) > dollarsToCents(wallet.withdrawableBalance)) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16">
        <Card role="alert">
          <CardHeader className="items-center text-center">
            <AlertCircle className="h-12 w-12 text-destructive" aria-hidden />
            <CardTitle className="text-2xl">Funds on Hold</CardTitle>
            <CardDescription>
              Requested {amountLabel}; withdrawable now {formatDollars(wallet.withdrawableBalance)} of your {formatDollars(wallet.balance)}{" "}
              balance.
            </CardDescription>
            <HeldNote wallet={wallet} />
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

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!values.accountHolderName.trim() || !values.accountNumber.trim() || !values.routingNumber.trim()) {
      toast.error("Missing Information", "Please fill in all bank account fields.");
      return;
    }
    const v = validate(bankAccountSchema, values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    withdraw.mutate(
      { amount, withdrawalMethod: method, bankAccount: values },
      {
        onSuccess: (res) => {
          if ((res.cardRefunds ?? []).length === 0) {
            // Requested, not paid: the transfer follows, and the pending row on the transactions tab follows it.
            toast.success(MONEY.withdrawalRequestedTitle, MONEY.withdrawalRequested(amountLabel));
            navigate("/dashboard?tab=transactions");
            return;
          }
          toast.success(
            MONEY.withdrawalRequestedTitle,
            [...res.cardRefunds.map((p) => p.message), res.bankMessage].filter(Boolean).join("; "),
          );
          setResult(res);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === "tax_form_required") setTaxFormRequired(errorMessage(error));
          toast.error("Withdrawal Error", errorMessage(error, MONEY.withdrawalDefaultError));
        },
      },
    );
  };

  const set = (k: "accountHolderName" | "accountNumber" | "routingNumber") => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues({ ...values, [k]: e.target.value });

  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-2xl">
            <Landmark className="h-6 w-6" aria-hidden /> Confirm Withdrawal
          </CardTitle>
          <CardDescription>Enter the bank account that should receive your winnings.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <VerifyEmailBanner user={user} />
          {taxFormRequired && (
            <section
              role="alert"
              aria-label="Tax information required"
              className="flex flex-col gap-3 rounded-lg border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
            >
              <p>{taxFormRequired}</p>
              <Button asChild variant="outline" size="sm" className="self-start">
                <Link to={TAX.formPath}>{TAX.formRequiredLink}</Link>
              </Button>
            </section>
          )}
          {bankCents > 0 && <IdentityBanner />}
          <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted p-4 text-sm">
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="text-right text-lg font-bold">{amountLabel}</dd>
            {wallet && (
              <>
                <dt className="text-muted-foreground">Withdrawable now</dt>
                <dd className="text-right">
                  {formatDollars(wallet.withdrawableBalance)} of {formatDollars(wallet.balance)}
                </dd>
              </>
            )}
            {cardCents > 0 && (
              <>
                <dt className="text-muted-foreground">Back to your card</dt>
                <dd className="text-right" data-testid="card-part">
                  {formatDollars(centsToDollars(cardCents))}
                </dd>
                <dt className="text-muted-foreground">To your bank account</dt>
                <dd className="text-right" data-testid="bank-part">
                  {formatDollars(centsToDollars(bankCents))}
                </dd>
              </>
            )}
            <dt className="text-muted-foreground">Method</dt>
            <dd className="text-right">{METHOD_LABELS[method] ?? method}</dd>
            <dt className="text-muted-foreground">Arrives</dt>
            <dd className="text-right">{cardCents > 0 ? "Card: 5-10 business days; bank: 1-3 business days" : "In 1-3 business days"}</dd>
          </dl>
          {cardCents > 0 && (
            <p className="text-sm text-muted-foreground">
              Money you deposited by card in the last 120 days goes back to that card first; only the rest goes to your bank account.
            </p>
          )}
          <form onSubmit={submit} noValidate className="space-y-4" aria-label="Bank account">
            <Field id="holder-name" label="Account Holder Name" error={errors.accountHolderName}>
              <Input
                id="holder-name"
                autoComplete="name"
                value={values.accountHolderName}
                onChange={set("accountHolderName")}
                {...invalidProps("holder-name", errors.accountHolderName)}
              />
            </Field>
            <Field id="account-number" label="Account Number" error={errors.accountNumber}>
              <Input
                id="account-number"
                inputMode="numeric"
                autoComplete="off"
                value={values.accountNumber}
                onChange={set("accountNumber")}
                {...invalidProps("account-number", errors.accountNumber)}
              />
            </Field>
            <Field id="routing-number" label="Routing Number" error={errors.routingNumber}>
              <Input
                id="routing-number"
                inputMode="numeric"
                autoComplete="off"
                maxLength={11}
                value={values.routingNumber}
                onChange={set("routingNumber")}
                {...invalidProps("routing-number", errors.routingNumber)}
              />
            </Field>
            <fieldset>
              <legend className="mb-2 text-sm font-medium">Account Type</legend>
              <RadioGroup
                value={values.accountType}
                onValueChange={(v) => setValues({ ...values, accountType: v === "savings" ? "savings" : "checking" })}
                aria-label="Account Type"
                className="grid-cols-2"
              >
                {BANK_ACCOUNT_TYPES.map((t) => (
                  <div key={t} className="flex items-center gap-2">
                    <RadioGroupItem value={t} id={`account-type-${t}`} />
                    <Label htmlFor={`account-type-${t}`} className="cursor-pointer capitalize">
                      {t}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
            </fieldset>
            <p className="text-xs text-muted-foreground">
              The amount leaves your balance now and shows as pending until the transfer is sent. {MONEY.bankAccountKept}
            </p>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="ghost" asChild>
                <Link to="/dashboard">Cancel</Link>
              </Button>
              <Button type="submit" disabled={withdraw.isPending}>
                {withdraw.isPending ? "Processing..." : `Withdraw ${amountLabel}`}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

/** After a withdrawal with a card part: each part on its own line (card refunds, then the bank transfer). */
function WithdrawalResult({ result }: { result: WithdrawalResponse }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card>
        <CardHeader className="items-center text-center">
          <CheckCircle2 className="h-12 w-12 text-primary" aria-hidden />
          <CardTitle className="text-2xl">Withdrawal Requested</CardTitle>
          <CardDescription>Your balance is now {formatDollars(result.balance)}.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="space-y-2" aria-label="Withdrawal parts">
            {result.cardRefunds.map((p) => (
              <li key={p.transaction.id} className="flex items-center gap-2">
                <CreditCard className="h-4 w-4" aria-hidden /> {p.message}
              </li>
            ))}
            {result.bankMessage && (
              <li className="flex items-center gap-2">
                <Landmark className="h-4 w-4" aria-hidden /> {result.bankMessage}
              </li>
            )}
          </ul>
          <div className="flex justify-center">
            <Button asChild>
              <Link to="/dashboard">Return to Dashboard</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
