// The parts the forms confirmed with an authenticator code share (the step-up dialog, enabling and
// disabling 2FA), so the field reads and autofills the same everywhere.
import { Button, type ButtonProps } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { invalidProps } from "@/lib/form";

/**
 * The "Authentication code" field. `numeric` asks phones for the digit keypad, for the app's code;
 * without it the full keyboard, for a form that invites a recovery code (letters too).
 */
export function AuthCodeField({
  id,
  value,
  onChange,
  error,
  numeric = false,
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  numeric?: boolean;
  className?: string;
}) {
  return (
    <Field id={id} label="Authentication code" error={error}>
      <Input
        id={id}
        inputMode={numeric ? "numeric" : undefined}
        autoComplete="one-time-code"
        maxLength={20}
        className={className}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...invalidProps(id, error)}
      />
    </Field>
  );
}

/** The end of a dialog's form: the error of the form as a whole, then Cancel and the submit button (its label while pending). */
export function DialogFormFooter({
  error,
  onCancel,
  pending,
  submitLabel,
  pendingLabel,
  variant,
}: {
  error?: string;
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  variant?: ButtonProps["variant"];
}) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={variant} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
