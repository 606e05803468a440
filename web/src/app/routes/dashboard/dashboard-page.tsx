import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { PageSpinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { USER_KEY, useUser } from "@/lib/session";
import { WalletCard } from "@/features/wallet/wallet-card";
import { useUserStats, useUserTournaments } from "./api";
import { PlayerSummary, StatCards } from "./dashboard-header";
import { MyTournamentsTab } from "./my-tournaments-tab";
import { SettingsTab } from "./settings-tab";
import { StatsTab } from "./stats-tab";
import { TransactionsTab } from "./transactions-tab";

const TABS = ["tournaments", "stats", "transactions", "settings"] as const;
type Tab = (typeof TABS)[number];

export default function DashboardPage() {
  const { user } = useUser();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "tournaments";
  const stats = useUserStats();
  const entries = useUserTournaments();

  // Balance, XP and counts change through play elsewhere: take a fresh look on arrival.
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: USER_KEY });
  }, [qc]);

  if (!user) return <PageSpinner />;

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8">
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <PlayerSummary user={user} />
        </div>
        <WalletCard user={user} />
      </div>
      <StatCards user={user} stats={stats.data} statsLoading={stats.isLoading} />
      <Tabs value={tab} onValueChange={(v) => setParams(v === "tournaments" ? {} : { tab: v }, { replace: true })}>
        <TabsList className="grid w-full grid-cols-2 sm:inline-flex sm:w-auto">
          <TabsTrigger value="tournaments">My Tournaments</TabsTrigger>
          <TabsTrigger value="stats">Stats & Performance</TabsTrigger>
          <TabsTrigger value="transactions">Transaction History</TabsTrigger>
          <TabsTrigger value="settings">Account Settings</TabsTrigger>
        </TabsList>
        <TabsContent value="tournaments">
          <MyTournamentsTab
            user={user}
            entries={entries.data}
            entriesLoading={entries.isLoading}
            entriesError={entries.isError}
            stats={stats.data}
          />
        </TabsContent>
        <TabsContent value="stats">
          <StatsTab stats={stats.data} loading={stats.isLoading} error={stats.isError} />
        </TabsContent>
        <TabsContent value="transactions">
          <TransactionsTab />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab user={user} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
