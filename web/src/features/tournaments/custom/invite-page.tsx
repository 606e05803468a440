// /t/:code (and /tournaments/join/:code): a private tournament as its invite code shows it, with
// the ordinary join (its checks, the paid confirmation, the fee) carrying the code.
import { Link, useParams } from "react-router";
import { SearchX } from "lucide-react";
import type { InvitedTournament } from "@common/api/custom-tournaments";
import { CUSTOM, FORMAT_LABEL } from "@common/messages";
import { normalizeInviteCode } from "@common/domain/custom-tournaments";
import { formatDollars } from "@common/domain/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/empty-state";
import { PageSpinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { errorMessage } from "@/lib/api";
import { feeLabel, formatStart } from "../display";
import { JoinButton } from "../components/join-button";
import { StatusBadge } from "../components/status-badge";
import { useInvitedTournament } from "./api";

export default function InvitePage() {
  const code = normalizeInviteCode(useParams().code ?? "");
  const invited = useInvitedTournament(code);
  if (code !== null && invited.isLoading) return <PageSpinner />;
  if (code === null || !invited.data) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <EmptyState
          icon={SearchX}
          title="Invitation not found"
          description={code === null ? CUSTOM.inviteNotFound : errorMessage(invited.error, CUSTOM.inviteNotFound)}
        >
          <Button asChild>
            <Link to="/tournaments/join">Enter a code</Link>
          </Button>
        </EmptyState>
      </div>
    );
  }
  return <Invitation t={invited.data} />;
}

function Invitation({ t }: { t: InvitedTournament }) {
  const { user } = useUser();
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <Card>
        <CardHeader className="space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{CUSTOM.privateBadge}</Badge>
            <StatusBadge status={t.status} />
          </div>
          <CardTitle className="text-2xl">{t.title}</CardTitle>
          <p className="text-sm text-muted-foreground">{t.description}</p>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
            <Fact label="Category" value={t.categoryName} />
            <Fact label="Starts" value={formatStart(t.startTime)} />
            <Fact label="Entry" value={feeLabel(t)} />
            <Fact label="Format" value={FORMAT_LABEL[t.format].title} />
            <Fact label="Players" value={`${t.currentParticipants}/${t.maxParticipants ?? "∞"}`} />
            {t.minLevel > 1 && <Fact label="Level" value={`Level ${t.minLevel}+`} />}
            {t.entryFee > 0 && <Fact label="Prize pool now" value={formatDollars(t.prizePool)} />}
            {t.minPlayers > 0 && <Fact label="Starts with" value={`at least ${t.minPlayers} players`} />}
          </dl>
          {t.joined ? (
            <div className="flex flex-wrap items-center gap-3">
              <p className="font-medium">You have joined this tournament.</p>
              <Button asChild variant="outline">
                <Link to={`/tournaments/${t.id}`}>Open the tournament</Link>
              </Button>
            </div>
          ) : user ? (
            <JoinButton tournament={{ ...t, inviteCode: t.inviteCode }} />
          ) : (
            <div className="space-y-2">
              <p className="text-sm text-muted-foreground">Sign in or create an account to join, then open this invite link again.</p>
              <Button asChild>
                <Link to="/auth">Sign in to join</Link>
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}
