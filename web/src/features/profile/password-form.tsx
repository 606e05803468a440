import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useChangePassword } from "./api";
import { passwordFormSchema, type PasswordFormVariant } from "./schemas";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

const TEXT = {
  dashboard: { failed: "Failed to update password", submit: "Update Password", busy: "Updating..." },
  profile: { failed: "Password update failed", submit: "Change Password", busy: "Changing..." },
} as const;

/** Change-password form in the dashboard's or the profile page's wording; cleared after success. */
export function PasswordForm({ variant }: { variant: PasswordFormVariant }) {
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const text = TEXT[variant];
  const id = (name: string) => `${variant}-${name}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(passwordFormSchema(variant), values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    // The dashboard sends the confirmation too, the profile page does not.
    const { confirmPassword, ...rest } = v.data;
    change.mutate(variant === "dashboard" ? { ...rest, confirmPassword } : rest, {
      onSuccess: () => {
        setValues(EMPTY);
        toast.success("Password updated", "Your password has been successfully changed.");
      },
      onError: (error) => toast.error(text.failed, errorMessage(error, "Failed to update password")),
    });
  };

  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [k]: e.target.value });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="Change password">
      <Field id={id("current-password")} label="Current Password" error={errors.currentPassword}>
        <Input
          id={id("current-password")}
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set("currentPassword")}
          {...invalidProps(id("current-password"), errors.currentPassword)}
        />
      </Field>
      <Field id={id("new-password")} label="New Password" error={errors.newPassword}>
        <Input
          id={id("new-password")}
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set("newPassword")}
          {...invalidProps(id("new-password"), errors.newPassword)}
        />
      </Field>
      <Field id={id("confirm-password")} label="Confirm New Password" error={errors.confirmPassword}>
        <Input
          id={id("confirm-password")}
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set("confirmPassword")}
          {...invalidProps(id("confirm-password"), errors.confirmPassword)}
        />
      </Field>
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? text.busy : text.submit}
      </Button>
    </form>
  );
}
