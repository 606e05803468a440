import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import type { User } from "@common/api/types";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { useUpdateProfile } from "@/features/profile/api";
import { PasswordForm } from "@/features/profile/password-form";
import { dashboardProfileSchema } from "@/features/profile/schemas";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";

/** Account Settings: username and email, and the password, in the dashboard's wording. */
export function SettingsTab({ user }: { user: User }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>
            Your username and email. Bio, avatar and links are on your{" "}
            <Link to="/profile" className="text-primary hover:underline">
              profile page
            </Link>
            .
          </CardDescription>
        </CardHeader>
        <CardContent>
          <DashboardProfileForm key={user.id} user={user} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Password</CardTitle>
          <CardDescription>Other devices are signed out when your password changes.</CardDescription>
        </CardHeader>
        <CardContent>
          <PasswordForm variant="dashboard" />
        </CardContent>
      </Card>
    </div>
  );
}

function DashboardProfileForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const [values, setValues] = useState({ username: user.username, email: user.email });
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(dashboardProfileSchema, values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    update.mutate(v.data, {
      onSuccess: (saved) => {
        setValues({ username: saved.username, email: saved.email });
        toast.success("Profile updated", "Your profile has been successfully updated.");
      },
      onError: (error) => toast.error("Failed to update profile", errorMessage(error, "Failed to update profile")),
    });
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="Profile">
      <Field id="settings-username" label="Username" error={errors.username}>
        <Input
          id="settings-username"
          autoComplete="username"
          value={values.username}
          onChange={(e) => setValues({ ...values, username: e.target.value })}
          {...invalidProps("settings-username", errors.username)}
        />
      </Field>
      <Field id="settings-email" label="Email" error={errors.email}>
        <Input
          id="settings-email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.target.value })}
          {...invalidProps("settings-email", errors.email)}
        />
      </Field>
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save Changes"}
      </Button>
    </form>
  );
}
