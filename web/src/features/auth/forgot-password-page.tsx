import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { MailCheck } from "lucide-react";
import { forgotPasswordSchema } from "@common/api/email";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useForgotPassword } from "./api";

/** /forgot-password: asks for a reset link. The answer never says whether an account has the address. */
export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(forgotPasswordSchema, { email });
    setErrors(v.errors ?? {});
    if (!v.data) return;
    forgot.mutate(v.data, { onError: (error) => toast.error("Could not send the link", errorMessage(error)) });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Forgot your password?</CardTitle>
          <CardDescription>Enter the email address of your account and we'll mail you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {forgot.isSuccess ? (
            <div role="status" className="flex gap-3 rounded-lg bg-muted p-4 text-sm">
              <MailCheck className="h-5 w-5 shrink-0 text-primary" aria-hidden />
              <p>{forgot.data.message}</p>
            </div>
          ) : (
            <form onSubmit={submit} noValidate className="space-y-4" aria-label="Forgot password">
              <Field id="forgot-email" label="Email" error={errors.email}>
                <Input
                  id="forgot-email"
                  type="email"
                  autoComplete="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  {...invalidProps("forgot-email", errors.email)}
                />
              </Field>
              <Button type="submit" className="w-full" disabled={forgot.isPending}>
                {forgot.isPending ? "Sending..." : "Send reset link"}
              </Button>
            </form>
          )}
          <p className="text-center text-sm">
            <Link to="/auth" className="text-primary hover:underline">
              Back to sign in
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
