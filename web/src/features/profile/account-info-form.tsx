import { useState, type FormEvent } from "react";
import type { SocialLinks } from "@common/api/accounts";
import type { User } from "@common/api/types";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input, Select, Textarea } from "@/components/ui/input";
import { countries } from "@/lib/countries";
import { SOCIAL_NETWORKS } from "@/components/social-links";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useUpdateProfile } from "./api";
import { profilePageSchema } from "./schemas";

type SocialKey = keyof SocialLinks;

const initialValues = (user: User) => ({
  username: user.username,
  email: user.email,
  bio: user.bio ?? "",
  location: user.location ?? "",
  country: user.country ?? "",
  socialLinks: Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n.key, user.socialLinks[n.key] ?? ""])) as Record<SocialKey, string>,
});

/** The profile page's Account Info form, in the page's own wording. */
export function AccountInfoForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const [values, setValues] = useState(() => initialValues(user));
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Blank links are left out, which clears them.
    const socialLinks = Object.fromEntries(Object.entries(values.socialLinks).filter(([, v]) => v.trim() !== ""));
    const { country: _country, ...fields } = values;
    const v = validate(profilePageSchema, { ...fields, socialLinks });
    setErrors(v.errors ?? {});
    if (!v.data) return;
    update.mutate(
      {
        username: v.data.username,
        email: v.data.email,
        bio: v.data.bio ?? "",
        location: v.data.location ?? "",
        country: values.country || null,
        socialLinks: v.data.socialLinks ?? {},
      },
      {
        onSuccess: (saved) => {
          setValues(initialValues(saved));
          toast.success("Profile updated", "Your profile has been successfully updated.");
        },
        onError: (error) => toast.error("Update failed", errorMessage(error, "Failed to update profile")),
      },
    );
  };

  const set = (k: "username" | "email" | "bio" | "location") => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues({ ...values, [k]: e.target.value });
  const setLink = (k: SocialKey) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues({ ...values, socialLinks: { ...values.socialLinks, [k]: e.target.value } });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
        <CardDescription>Your bio, location and links appear on your public profile.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-5" noValidate aria-label="Account information">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="profile-username" label="Username" error={errors.username}>
              <Input
                id="profile-username"
                autoComplete="username"
                value={values.username}
                onChange={set("username")}
                {...invalidProps("profile-username", errors.username)}
              />
            </Field>
            <Field id="profile-email" label="Email" error={errors.email}>
              <Input
                id="profile-email"
                type="email"
                autoComplete="email"
                value={values.email}
                onChange={set("email")}
                {...invalidProps("profile-email", errors.email)}
              />
            </Field>
          </div>
          <Field id="profile-bio" label="Bio" error={errors.bio}>
            <Textarea
              id="profile-bio"
              rows={4}
              maxLength={500}
              placeholder="Tell other players about yourself"
              value={values.bio}
              onChange={set("bio")}
              {...invalidProps("profile-bio", errors.bio)}
            />
          </Field>
          <Field id="profile-location" label="Location" error={errors.location}>
            <Input
              id="profile-location"
              autoComplete="address-level2"
              placeholder="City, Country"
              maxLength={100}
              value={values.location}
              onChange={set("location")}
              {...invalidProps("profile-location", errors.location)}
            />
          </Field>
          <Field id="profile-country" label="Country" error={errors.country}>
            <Select id="profile-country" value={values.country} onChange={(e) => setValues({ ...values, country: e.target.value })}>
              <option value="">Not set</option>
              {countries().map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
          <p className="-mt-3 text-xs text-muted-foreground">
            Places you on your country's leaderboard. Set from where you signed up; change it if it is wrong.
          </p>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Social Links</legend>
            {errors.socialLinks && (
              <p role="alert" className="text-sm text-destructive">
                {errors.socialLinks}
              </p>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              {SOCIAL_NETWORKS.map((n) => (
                <Field key={n.key} id={`profile-social-${n.key}`} label={n.label}>
                  <Input
                    id={`profile-social-${n.key}`}
                    placeholder={`${n.base}username`}
                    maxLength={200}
                    value={values.socialLinks[n.key]}
                    onChange={setLink(n.key)}
                  />
                </Field>
              ))}
            </div>
          </fieldset>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving..." : "Save Changes"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
