import { useState } from "react";
import type { Preferences } from "@common/api/accounts";
import type { User } from "@common/api/types";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { errorMessage } from "@/lib/api";
import { useTheme } from "@/lib/theme";
import { toast } from "@/lib/toast";
import { useUpdateProfile } from "./api";

type ThemeChoice = "light" | "dark";
type Visibility = "showLevel" | "showWins" | "showSocial";

const VISIBILITY: { key: Visibility; label: string }[] = [
  { key: "showLevel", label: "Show my level publicly" },
  { key: "showWins", label: "Show my tournament wins publicly" },
  { key: "showSocial", label: "Show my social media links" },
];

/** Theme (applied at once) and what other players see, saved to the account's preferences. */
export function AppearanceSettings({ user }: { user: User }) {
  const { theme, setTheme } = useTheme();
  const update = useUpdateProfile();
  // The theme on screen is what the radio shows; the saved preference only fills in for "system".
  const [choice, setChoice] = useState<ThemeChoice>(() =>
    theme === "system" ? (user.preferences.theme === "light" ? "light" : "dark") : theme,
  );
  const [visibility, setVisibility] = useState<Record<Visibility, boolean>>(() => ({
    showLevel: user.preferences.showLevel ?? true,
    showWins: user.preferences.showWins ?? true,
    showSocial: user.preferences.showSocial ?? true,
  }));

  const pickTheme = (value: string) => {
    const t = value === "light" ? "light" : "dark";
    setChoice(t);
    setTheme(t);
  };

  const save = () => {
    const preferences: Preferences = { theme: choice, ...visibility };
    update.mutate(
      { username: user.username, email: user.email, preferences },
      {
        onSuccess: () => toast.success("Preferences saved", "Your appearance and privacy preferences have been updated."),
        onError: (error) => toast.error("Update failed", errorMessage(error, "Failed to update profile")),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Choose a theme and what other players can see on your public profile.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <fieldset>
          <legend className="mb-3 text-sm font-medium">Theme</legend>
          <RadioGroup value={choice} onValueChange={pickTheme} aria-label="Theme" className="sm:grid-cols-2">
            {(["light", "dark"] as const).map((t) => (
              <div key={t} className="flex items-center gap-3 rounded-lg border border-border p-3">
                <RadioGroupItem value={t} id={`theme-${t}`} />
                <Label htmlFor={`theme-${t}`} className="cursor-pointer">
                  {t === "light" ? "Light" : "Dark"}
                </Label>
              </div>
            ))}
          </RadioGroup>
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="mb-3 text-sm font-medium">Privacy</legend>
          {VISIBILITY.map(({ key, label }) => (
            <div key={key} className="flex items-center gap-3">
              <Checkbox
                id={`pref-${key}`}
                checked={visibility[key]}
                onCheckedChange={(c) => setVisibility({ ...visibility, [key]: c === true })}
              />
              <Label htmlFor={`pref-${key}`} className="cursor-pointer">
                {label}
              </Label>
            </div>
          ))}
        </fieldset>
        <Button onClick={save} disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save Preferences"}
        </Button>
      </CardContent>
    </Card>
  );
}
