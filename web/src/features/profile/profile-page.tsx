import { useSearchParams } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageSpinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useUser } from "@/lib/session";
import { AccountInfoForm } from "./account-info-form";
import { AppearanceSettings } from "./appearance-settings";
import { NotificationSettings } from "./notification-settings";
import { DataExport } from "./data-export";
import { DeleteAccount } from "./delete-account";
import { PasswordForm } from "./password-form";
import { ProfileCard, ProfileStatsCard } from "./profile-card";
import { TwoFactorSettings } from "./two-factor-settings";
import { ResponsiblePlaySettings } from "./responsible-play-settings";
import { TaxSettings } from "./tax-settings";
import { IdentitySection } from "./identity-section";

const TABS = ["account", "appearance", "security", "identity", "responsible-play", "tax"] as const;
type Tab = (typeof TABS)[number];

export default function ProfilePage() {
  const { user, isLoading } = useUser();
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "account";

  // The route is behind the authentication wrapper; this only covers the moment after sign-out.
  if (isLoading || !user) return <PageSpinner />;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold">Profile</h1>
      <p className="mt-1 text-muted-foreground">
        Manage your account, appearance, security, identity, responsible play and tax information.
      </p>
      <Tabs value={tab} onValueChange={(v) => setParams(v === "account" ? {} : { tab: v }, { replace: true })} className="mt-6">
        <TabsList>
          <TabsTrigger value="account">Account Info</TabsTrigger>
          <TabsTrigger value="appearance">Appearance</TabsTrigger>
          <TabsTrigger value="security">Security</TabsTrigger>
          <TabsTrigger value="identity">Identity</TabsTrigger>
          <TabsTrigger value="responsible-play">Responsible play</TabsTrigger>
          <TabsTrigger value="tax">Tax information</TabsTrigger>
        </TabsList>
        <TabsContent value="account">
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="space-y-6">
              <ProfileCard user={user} />
              <ProfileStatsCard user={user} />
            </div>
            <div className="lg:col-span-2">
              <AccountInfoForm key={user.id} user={user} />
            </div>
          </div>
        </TabsContent>
        <TabsContent value="appearance" className="space-y-6">
          <AppearanceSettings user={user} />
          <NotificationSettings key={user.id} user={user} />
        </TabsContent>
        <TabsContent value="security" className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Change Password</CardTitle>
              <CardDescription>Other devices signed in to your account are signed out when the password changes.</CardDescription>
            </CardHeader>
            <CardContent className="max-w-md">
              <PasswordForm variant="profile" />
            </CardContent>
          </Card>
          <TwoFactorSettings user={user} />
          <DataExport />
          <DeleteAccount />
        </TabsContent>
        <TabsContent value="identity">
          <IdentitySection />
        </TabsContent>
        <TabsContent value="responsible-play">
          <ResponsiblePlaySettings />
        </TabsContent>
        <TabsContent value="tax">
          <TaxSettings />
        </TabsContent>
      </Tabs>
    </div>
  );
}
