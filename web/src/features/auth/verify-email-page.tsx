import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { CheckCircle2, XCircle } from "lucide-react";
import { EMAIL } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { useUser } from "@/lib/session";
import { useVerifyEmail } from "./api";

/** /verify-email?token=…: the mailed link's page; it uses the token once, signed in or not. */
export default function VerifyEmailPage() {
  const token = useSearchParams()[0].get("token") ?? "";
  const { user } = useUser();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const sent = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice; the token works once.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const failed = !token || verify.isError;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Email verification</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {verify.isSuccess ? (
            <p role="status" className="flex items-center gap-2">
              <CheckCircle2 className="h-5 w-5 text-green-600" aria-hidden /> {verify.data.message}
            </p>
          ) : failed ? (
            <p role="alert" className="flex items-center gap-2">
              <XCircle className="h-5 w-5 shrink-0 text-destructive" aria-hidden />
              {token ? errorMessage(verify.error) : EMAIL.verifyTokenMissing}
            </p>
          ) : (
            <p className="flex items-center gap-2">
              <Spinner className="h-5 w-5" /> Verifying your email address...
            </p>
          )}
          {(verify.isSuccess || failed) && (
            <Button asChild>
              <Link to={user ? "/dashboard" : "/auth"}>{user ? "Go to Dashboard" : "Sign in"}</Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
