import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { AlertTriangle } from "lucide-react";
import { ACCOUNT_DELETION } from "@common/legal-messages";
import { deleteAccountSchema } from "@common/api/account-security";
import { DELETE_ACCOUNT_CONFIRMATION } from "@common/spec";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { useDeleteAccount } from "./api";

const EMPTY = { confirm: "", password: "" };

/** What a deletion erases and what it keeps, as the privacy policy says (and worker/routes/user.ts does). */
function DeletionSummary() {
  return (
    <div className="grid gap-4 text-sm sm:grid-cols-2">
      <div>
        <h3 className="font-semibold">Erased</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-muted-foreground">
          {ACCOUNT_DELETION.erases.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-semibold">Kept, and why</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-muted-foreground">
          {ACCOUNT_DELETION.keeps.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <p className="text-muted-foreground sm:col-span-2">
        Want a copy first? Use Download my data above. Details:{" "}
        <Link to="/privacy" className="text-primary hover:underline">
          Privacy Policy
        </Link>
        .
      </p>
    </div>
  );
}

/** The Danger Zone: deleting asks for the password and the typed word; the server refuses while money is owed. */
export function DeleteAccount() {
  const del = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});

  const onOpenChange = (next: boolean) => {
    if (!next) {
      setValues(EMPTY);
      setErrors({});
    }
    setOpen(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(deleteAccountSchema, values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    del.mutate(v.data, {
      // A remaining balance, a pending withdrawal or a wrong password: the server says which.
      onError: (error) => setErrors({ form: errorMessage(error, "Failed to delete account") }),
    });
  };

  return (
    <Card className="border-destructive/60">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <AlertTriangle className="h-5 w-5" aria-hidden /> Danger Zone
        </CardTitle>
        <CardDescription>
          Deleting your account removes your profile and personal data for good. Withdraw your balance first; your account can't be deleted
          while money is left in it, a withdrawal is still being processed or you hold a seat in a tournament that has not ended.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <DeletionSummary />
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogTrigger asChild>
            <Button variant="destructive">Delete Account</Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription>
                This cannot be undone. Type {DELETE_ACCOUNT_CONFIRMATION} and enter your password to confirm.
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={submit} className="space-y-4" noValidate>
              <Field id="delete-confirm" label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`} error={errors.confirm}>
                <Input
                  id="delete-confirm"
                  autoComplete="off"
                  value={values.confirm}
                  onChange={(e) => setValues({ ...values, confirm: e.target.value })}
                  {...invalidProps("delete-confirm", errors.confirm)}
                />
              </Field>
              <Field id="delete-password" label="Password" error={errors.password}>
                <Input
                  id="delete-password"
                  type="password"
                  autoComplete="current-password"
                  value={values.password}
                  onChange={(e) => setValues({ ...values, password: e.target.value })}
                  {...invalidProps("delete-password", errors.password)}
                />
              </Field>
              {errors.form && (
                <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
                  {errors.form}
                </p>
              )}
              <DialogFooter>
                <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={del.isPending || values.confirm !== DELETE_ACCOUNT_CONFIRMATION || values.password === ""}
                >
                  {del.isPending ? "Deleting..." : "Delete Account"}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
