import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { resetPasswordFormSchema } from "@common/api/email";
import { EMAIL } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useResetPassword } from "./api";

/** /reset-password?token=…: the mailed link's page; a new password, then sign in with it. */
export default function ResetPasswordPage() {
  const token = useSearchParams()[0].get("token") ?? "";
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [values, setValues] = useState({ newPassword: "", confirmPassword: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const linkDead = reset.error instanceof ApiError && reset.error.code === "reset_token_invalid";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(resetPasswordFormSchema, { token, ...values });
    setErrors(v.errors ?? {});
    if (!v.data) return;
    reset.mutate(
      { token: v.data.token, newPassword: v.data.newPassword },
      {
        onSuccess: (res) => {
          toast.success("Password reset", res.message);
          navigate("/auth", { replace: true });
        },
        onError: (error) => {
          if (!(error instanceof ApiError && error.code === "reset_token_invalid")) toast.error("Password not reset", errorMessage(error));
        },
      },
    );
  };

  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [k]: e.target.value });
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Choose a new password</CardTitle>
          <CardDescription>Every device signed in to your account is signed out once the password is reset.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {!token || linkDead ? (
            <div role="alert" className="space-y-3 text-sm">
              <p>{token ? EMAIL.resetTokenInvalid : EMAIL.verifyTokenMissing}</p>
              <Button asChild>
                <Link to="/forgot-password">Ask for a new link</Link>
              </Button>
            </div>
          ) : (
            <form onSubmit={submit} noValidate className="space-y-4" aria-label="New password">
              <Field id="reset-password" label="New Password" error={errors.newPassword}>
                <Input
                  id="reset-password"
                  type="password"
                  autoComplete="new-password"
                  value={values.newPassword}
                  onChange={set("newPassword")}
                  {...invalidProps("reset-password", errors.newPassword)}
                />
              </Field>
              <Field id="reset-confirm" label="Confirm New Password" error={errors.confirmPassword}>
                <Input
                  id="reset-confirm"
                  type="password"
                  autoComplete="new-password"
                  value={values.confirmPassword}
                  onChange={set("confirmPassword")}
                  {...invalidProps("reset-confirm", errors.confirmPassword)}
                />
              </Field>
              <Button type="submit" className="w-full" disabled={reset.isPending}>
                {reset.isPending ? "Saving..." : "Reset password"}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
