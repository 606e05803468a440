import { useEffect, useState, type FormEvent } from "react";
import QRCode from "qrcode";
import { ShieldCheck } from "lucide-react";
import { twoFactorDisableSchema, twoFactorEnableSchema, type TwoFactorSetupResponse } from "@common/api/account-security";
import type { User } from "@common/api/types";
import { AuthCodeField, DialogFormFooter } from "@/components/auth-code-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from "./api";

/** The otpauth URI drawn as an SVG QR code in the browser; the secret never leaves the page. */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" })
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <div className="flex h-48 w-48 items-center justify-center rounded-lg bg-white p-2">
      {src && <img src={src} alt="QR code for your authenticator app" className="h-full w-full" />}
    </div>
  );
}

const groupSecret = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

/** TOTP two-factor authentication: enrol with a QR code, confirm with a code, keep the recovery codes. */
export function TwoFactorSettings({ user }: { user: User }) {
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const [pending, setPending] = useState<TwoFactorSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string>();
  const [disableOpen, setDisableOpen] = useState(false);

  const start = () =>
    setup.mutate(undefined, {
      onSuccess: (res) => {
        setPending(res);
        setCode("");
        setCodeError(undefined);
      },
      onError: (error) => toast.error("Two-factor setup failed", errorMessage(error, "Could not start two-factor setup")),
    });

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(twoFactorEnableSchema, { code });
    setCodeError(v.errors?.code);
    if (!v.data) return;
    enable.mutate(v.data, {
      onSuccess: (res) => {
        setPending(null);
        setRecoveryCodes(res.recoveryCodes);
        toast.success("Two-factor authentication enabled", "You will be asked for a code when you sign in.");
      },
      onError: (error) => setCodeError(errorMessage(error, "Could not enable two-factor authentication")),
    });
  };

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>Two-Factor Authentication</CardTitle>
          {user.twoFactorEnabled ? <Badge variant="success">Enabled</Badge> : <Badge variant="secondary">Off</Badge>}
        </div>
        <CardDescription>Protect your account and your winnings with a code from an authenticator app at every sign-in.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {recoveryCodes ? (
          <section aria-labelledby="recovery-codes-title" className="space-y-3">
            <h4 id="recovery-codes-title" className="font-semibold">
              Save your recovery codes
            </h4>
            <p className="text-sm text-muted-foreground">
              Each code signs you in once if you lose your authenticator. They are shown only now: store them somewhere safe.
            </p>
            <ul className="grid grid-cols-2 gap-2 rounded-lg bg-muted p-4 font-mono text-sm" aria-label="Recovery codes">
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() =>
                  navigator.clipboard?.writeText(recoveryCodes.join("\n")).then(
                    () => toast.success("Copied", "Recovery codes copied to the clipboard."),
                    () => toast.error("Copy failed", "Select the codes and copy them by hand."),
                  )
                }
              >
                Copy codes
              </Button>
              <Button onClick={() => setRecoveryCodes(null)}>I have saved my codes</Button>
            </div>
          </section>
        ) : pending ? (
          <form onSubmit={confirm} className="space-y-4" noValidate aria-label="Set up two-factor authentication">
            <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
              <li>Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy...).</li>
              <li>Or enter the setup key by hand.</li>
              <li>Type the 6-digit code the app shows.</li>
            </ol>
            <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
              <QrCode uri={pending.otpauthUri} />
              <div className="min-w-0">
                <p className="text-sm font-medium">Setup key</p>
                <code className="mt-1 block break-all rounded bg-muted px-2 py-1 font-mono text-sm" aria-label="Setup key">
                  {groupSecret(pending.secret)}
                </code>
              </div>
            </div>
            <AuthCodeField id="totp-enable-code" numeric className="block max-w-48" value={code} onChange={setCode} error={codeError} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={enable.isPending}>
                {enable.isPending ? "Verifying..." : "Verify and Enable"}
              </Button>
              <Button type="button" variant="ghost" onClick={() => setPending(null)}>
                Cancel
              </Button>
            </div>
          </form>
        ) : user.twoFactorEnabled ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="flex items-center gap-2 text-sm">
              <ShieldCheck className="h-4 w-4 text-success" aria-hidden />
              Sign-ins to this account need a code from your authenticator app.
            </p>
            <Button variant="outline" onClick={() => setDisableOpen(true)}>
              Disable 2FA
            </Button>
          </div>
        ) : (
          <Button onClick={start} disabled={setup.isPending}>
            {setup.isPending ? "Starting..." : "Enable 2FA"}
          </Button>
        )}
      </CardContent>
      <DisableTwoFactorDialog open={disableOpen} onOpenChange={setDisableOpen} />
    </Card>
  );
}

function DisableTwoFactorDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const disable = useTwoFactorDisable();
  const [values, setValues] = useState({ password: "", code: "" });
  const [errors, setErrors] = useState<FieldErrors>({});

  const close = (next: boolean) => {
    if (!next) {
      setValues({ password: "", code: "" });
      setErrors({});
    }
    onOpenChange(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(twoFactorDisableSchema, values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    disable.mutate(v.data, {
      onSuccess: () => {
        close(false);
        toast.success("Two-factor authentication disabled", "Sign-ins no longer ask for a code.");
      },
      onError: (error) => setErrors({ form: errorMessage(error, "Could not disable two-factor authentication") }),
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Disable two-factor authentication</DialogTitle>
          <DialogDescription>Confirm with your password and a code from your authenticator app (or a recovery code).</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field id="totp-disable-password" label="Password" error={errors.password}>
            <Input
              id="totp-disable-password"
              type="password"
              autoComplete="current-password"
              value={values.password}
              onChange={(e) => setValues({ ...values, password: e.target.value })}
              {...invalidProps("totp-disable-password", errors.password)}
            />
          </Field>
          <AuthCodeField
            id="totp-disable-code"
            value={values.code}
            onChange={(code) => setValues({ ...values, code })}
            error={errors.code}
          />
          <DialogFormFooter
            error={errors.form}
            onCancel={() => close(false)}
            pending={disable.isPending}
            submitLabel="Disable 2FA"
            pendingLabel="Disabling..."
            variant="destructive"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
