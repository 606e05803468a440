import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { FlaskConical } from "lucide-react";
import { sandboxConfirmSchema } from "@common/api/money";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useSandboxConfirm } from "./api";
import { paymentSuccessUrl } from "./payment-result-url";

const TEST_CARDS = [
  { number: "4242 4242 4242 4242", result: "succeeds" },
  { number: "4000 0000 0000 0002", result: "is declined" },
];

/** "MM/YY" to the schema's month and year; anything else fails the expiry rule. */
function splitExpiry(expiry: string) {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  return m ? { expMonth: m[1]!, expYear: m[2]! } : { expMonth: "", expYear: "" };
}

/** Groups the digits in fours as they are typed. */
const formatCardNumber = (v: string) =>
  v
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/** The built-in sandbox provider's card form: test cards only, nothing is charged or stored. */
export function SandboxCardForm({ clientSecret, amountLabel }: { clientSecret: string; amountLabel: string }) {
  const navigate = useNavigate();
  const confirm = useSandboxConfirm();
  const [values, setValues] = useState({ cardNumber: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(sandboxConfirmSchema, {
      clientSecret,
      cardNumber: values.cardNumber,
      cvc: values.cvc,
      ...splitExpiry(values.expiry),
    });
    const fieldErrors = v.errors
      ? { cardNumber: v.errors.cardNumber, expiry: v.errors.expMonth ?? v.errors.expYear, cvc: v.errors.cvc }
      : {};
    setErrors(fieldErrors);
    if (!v.data) return;
    confirm.mutate(
      { clientSecret, cardNumber: values.cardNumber, cvc: values.cvc, ...splitExpiry(values.expiry) },
      {
        onSuccess: (res) => navigate(paymentSuccessUrl(res.paymentIntentId, clientSecret)),
        onError: (error) => toast.error("Payment Failed", errorMessage(error, "An unexpected error occurred")),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Card details">
      <div role="note" className="rounded-lg border border-warning/60 bg-warning/10 p-4 text-sm">
        <p className="flex items-center gap-2 font-semibold">
          <FlaskConical className="h-4 w-4" aria-hidden /> Sandbox — test cards only
        </p>
        <p className="mt-1 text-muted-foreground">No real card is charged. Use any future expiry date and any 3-digit CVC.</p>
        <ul className="mt-2 space-y-0.5">
          {TEST_CARDS.map((c) => (
            <li key={c.number}>
              <span className="font-mono">{c.number}</span> {c.result}
            </li>
          ))}
        </ul>
      </div>
      <Field id="card-number" label="Card number" error={errors.cardNumber}>
        <Input
          id="card-number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={values.cardNumber}
          onChange={(e) => setValues({ ...values, cardNumber: formatCardNumber(e.target.value) })}
          {...invalidProps("card-number", errors.cardNumber)}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="card-expiry" label="Expiry (MM/YY)" error={errors.expiry}>
          <Input
            id="card-expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={7}
            value={values.expiry}
            onChange={(e) => setValues({ ...values, expiry: e.target.value })}
            {...invalidProps("card-expiry", errors.expiry)}
          />
        </Field>
        <Field id="card-cvc" label="CVC" error={errors.cvc}>
          <Input
            id="card-cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={values.cvc}
            onChange={(e) => setValues({ ...values, cvc: e.target.value })}
            {...invalidProps("card-cvc", errors.cvc)}
          />
        </Field>
      </div>
      <Button type="submit" className="w-full" size="lg" disabled={confirm.isPending}>
        {confirm.isPending ? "Processing..." : `Pay ${amountLabel}`}
      </Button>
    </form>
  );
}
