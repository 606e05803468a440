import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ArrowDownToLine, ArrowUpFromLine } from "lucide-react";
import { centsToDollars, dollarsToCentsExact, type Cents, formatDollars, formatCents } from "@common/domain/money";
import { MIN_WITHDRAWAL_CENTS } from "@common/spec";
import { MONEY } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { usePaymentConfig } from "./api";
import { depositFormSchema, withdrawFormSchema } from "./schemas";

/** Deposit Funds: an amount, then the checkout page. */
export function DepositDialog() {
  const navigate = useNavigate();
  const config = usePaymentConfig();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const maxCents = config.data ? (dollarsToCentsExact(config.data.maxDeposit) ?? undefined) : undefined;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setAmount("");
      setErrors({});
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(depositFormSchema(maxCents), { amount });
    setErrors(v.errors ?? {});
    if (!v.data) {
      toast.error("Deposit Error", "Please enter a valid amount.");
      return;
    }
    setOpen(false);
    navigate(`/checkout/${centsToDollars(v.data.amount)}`);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button className="flex-1">
          <ArrowDownToLine className="h-4 w-4" aria-hidden /> Deposit Funds
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Deposit Funds</DialogTitle>
          <DialogDescription>
            Add money to your balance by card.
            {config.data && ` Deposits from ${formatDollars(config.data.minDeposit)} to ${formatDollars(config.data.maxDeposit)}.`}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate>
          <AmountField id="deposit-amount" value={amount} onChange={setAmount} error={errors.amount} />
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Continue to Checkout</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Withdraw Winnings: an amount up to what can be withdrawn now and a method, then the bank
 * details page. Closed to a frozen account, which must settle what it owes first.
 */
export function WithdrawDialog({
  balanceCents,
  withdrawableCents = balanceCents,
  frozen = false,
}: {
  balanceCents: Cents;
  withdrawableCents?: Cents;
  frozen?: boolean;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState({ amount: "", method: "" });
  const [errors, setErrors] = useState<FieldErrors>({});

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setValues({ amount: "", method: "" });
      setErrors({});
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(withdrawFormSchema(balanceCents, withdrawableCents), values);
    setErrors(v.errors ?? {});
    if (!v.data) {
      // The fields say what is wrong; the toast names the method, else says the withdrawal cannot go on as entered.
      toast.error("Withdrawal Failed", v.errors.method && !v.errors.amount ? v.errors.method : MONEY.withdrawalDialogError);
      return;
    }
    setOpen(false);
    navigate(`/withdraw-confirm/${centsToDollars(v.data.amount)}?method=${v.data.method}`);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" className="flex-1" disabled={balanceCents <= 0 || frozen}>
          <ArrowUpFromLine className="h-4 w-4" aria-hidden /> Withdraw Winnings
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Withdraw Winnings</DialogTitle>
          <DialogDescription>
            {withdrawableCents < balanceCents
              ? `Withdrawable now: ${formatDollars(centsToDollars(withdrawableCents))} of your ${formatDollars(centsToDollars(balanceCents))} balance; recent deposits are on hold.`
              : `Available balance: ${formatDollars(centsToDollars(balanceCents))}.`}{" "}
            The minimum withdrawal is ${formatCents(MIN_WITHDRAWAL_CENTS)}. Withdrawals reach your bank in 1-3 business days.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-4">
          <AmountField
            id="withdraw-amount"
            value={values.amount}
            onChange={(amount) => setValues({ ...values, amount })}
            error={errors.amount}
          />
          <Field id="withdraw-method" label="Withdrawal Method" error={errors.method}>
            <select
              id="withdraw-method"
              value={values.method}
              onChange={(e) => setValues({ ...values, method: e.target.value })}
              className="h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive"
              {...invalidProps("withdraw-method", errors.method)}
            >
              <option value="">Select a withdrawal method</option>
              <option value="bank_account">Bank Account</option>
            </select>
          </Field>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function AmountField({ id, value, onChange, error }: { id: string; value: string; onChange(v: string): void; error?: string }) {
  return (
    <Field id={id} label="Amount (USD)" error={error}>
      <div className="relative">
        <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-muted-foreground" aria-hidden>
          $
        </span>
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="0.00"
          className="pl-7"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...invalidProps(id, error)}
        />
      </div>
    </Field>
  );
}
