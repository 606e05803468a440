// The step-up dialog itself (components/step-up-dialog.tsx mounts it, loaded with the first
// step-up): the password, and a code with 2FA on, confirmed with POST /api/auth/step-up.
import { useState, type FormEvent } from "react";
import { stepUpSchema, type StepUpInput } from "@common/api/sessions";
import { AUTH } from "@common/messages";
import { AuthCodeField, DialogFormFooter } from "@/components/auth-code-form";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { api, read } from "@/lib/api-client";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { useUser } from "@/lib/session";

const EMPTY = { password: "", totpCode: "" };

/** Open while a request waits for the step-up; `onFinish(true)` once the session stepped up, false when cancelled. */
export default function StepUpForm({ open, onFinish }: { open: boolean; onFinish: (confirmed: boolean) => void }) {
  const { user } = useUser();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [askCode, setAskCode] = useState(false);
  const [busy, setBusy] = useState(false);

  const finish = (confirmed: boolean) => {
    setValues(EMPTY);
    setErrors({});
    onFinish(confirmed);
  };

  const needsCode = askCode || Boolean(user?.twoFactorEnabled);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(stepUpSchema, needsCode ? values : { password: values.password });
    setErrors(v.errors ?? {});
    if (!v.data) return;
    const input: StepUpInput = needsCode ? v.data : { password: v.data.password };
    setBusy(true);
    try {
      await read(api.auth["step-up"].$post({ json: input }));
      finish(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === "two_factor_required") {
        setAskCode(true);
        setErrors({ totpCode: error.message });
      } else if (error instanceof ApiError && error.code === "two_factor_invalid") {
        setErrors({ totpCode: error.message });
      } else {
        setErrors({ form: errorMessage(error, "Could not confirm your password") });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it&apos;s you</DialogTitle>
          <DialogDescription>{AUTH.stepUpRequired}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field id="step-up-password" label="Password" error={errors.password}>
            <Input
              id="step-up-password"
              type="password"
              autoComplete="current-password"
              autoFocus
              value={values.password}
              onChange={(e) => setValues({ ...values, password: e.target.value })}
              {...invalidProps("step-up-password", errors.password)}
            />
          </Field>
          {needsCode && (
            <AuthCodeField
              id="step-up-code"
              numeric
              value={values.totpCode}
              onChange={(totpCode) => setValues({ ...values, totpCode })}
              error={errors.totpCode}
            />
          )}
          <DialogFormFooter
            error={errors.form}
            onCancel={() => finish(false)}
            pending={busy}
            submitLabel="Confirm"
            pendingLabel="Confirming..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
