// Which notifications also come by email: the "Remind me" reminders of featured events
// (docs/featured-events.md). The in-app reminder always comes; this switch is for the email only.
import { useState } from "react";
import type { User } from "@common/api/types";
import { FEATURED } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useUpdateProfile } from "./api";

export function NotificationSettings({ user }: { user: User }) {
  const update = useUpdateProfile();
  const [emails, setEmails] = useState(user.preferences.eventReminderEmails !== false);
  const save = () =>
    update.mutate(
      { username: user.username, email: user.email, preferences: { eventReminderEmails: emails } },
      {
        onSuccess: () => toast.success("Notification settings saved"),
        onError: (error) => toast.error("Update failed", errorMessage(error, "Failed to update profile")),
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>{FEATURED.emailSettingHint}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex items-center gap-3">
          <Checkbox id="pref-event-reminder-emails" checked={emails} onCheckedChange={(c) => setEmails(c === true)} />
          <Label htmlFor="pref-event-reminder-emails" className="cursor-pointer">
            {FEATURED.emailSetting}
          </Label>
        </div>
        <Button onClick={save} disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save notification settings"}
        </Button>
      </CardContent>
    </Card>
  );
}
