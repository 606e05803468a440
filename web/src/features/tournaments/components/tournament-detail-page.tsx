import { useEffect } from "react";
import { FeaturedPanel } from "./featured-events";
import { formatDollars } from "@common/domain/money";
import { Link, useParams, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Hourglass, Maximize2, Play, SearchX } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { CUSTOM, FORMAT_LABEL, JOIN } from "@common/messages";
import { OPTIONS_PER_QUESTION, QUESTION_TIME_MS } from "@common/spec";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageSpinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useUser } from "@/lib/session";
import { PlayGate } from "@/features/tournaments/play/components/play-gate";
import { useTournamentSocket } from "@/features/tournaments/play/use-tournament-socket";
import { useCountdown } from "@/hooks/use-countdown";
import { ApiError } from "@/lib/api";
import { toast } from "@/lib/toast";
import { tournamentKeys, useParticipants, useTournament } from "../api";
import { FairnessSection } from "../fair-play/fairness-panel";
import { InviteShare } from "../custom/invite-panel";
import { difficultyText, feeLabel, isOpenForPlay, playersMissing, shownStatus } from "../display";
import { isPractice } from "../join-checks";
import { LeaderboardTab } from "./leaderboard-tab";
import { StatusPanel } from "./status-panel";
import { ParticipantsList } from "./participants-list";
import { ScoringRules } from "@/components/scoring-rules";
import { StatusBadge } from "./status-badge";
import { TournamentImage } from "./tournament-image";
import { TournamentStats } from "./tournament-stats";

const TABS = ["overview", "play", "leaderboard", "participants", "scoring"] as const;
type Tab = (typeof TABS)[number];

export default function TournamentDetailPage() {
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { data: t, isLoading, error, refetch } = useTournament(id, { enabled: valid });

  if (valid && isLoading) return <PageSpinner />;
  if (!valid || (error instanceof ApiError && error.status === 404)) return <TournamentNotFound />;
  if (!t) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <EmptyState title="The tournament could not be loaded" description={error?.message}>
          <Button variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </EmptyState>
      </div>
    );
  }
  return <TournamentDetailView tournament={t} />;
}

function TournamentNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <EmptyState
        icon={SearchX}
        title="Tournament Not Found"
        description="The tournament you're looking for doesn't exist or has been removed."
      >
        <Button asChild>
          <Link to="/tournaments">Browse Tournaments</Link>
        </Button>
      </EmptyState>
    </div>
  );
}

function TournamentDetailView({ tournament: t }: { tournament: TournamentDetail }) {
  const { user } = useUser();
  const [params, setParams] = useSearchParams();
  const participants = useParticipants(t.id);
  const qc = useQueryClient();
  const countdown = useCountdown(t.status === "upcoming" ? t.startTime : null);
  // At zero the page turns live on its own, as the cards do, without waiting for a push.
  const status = shownStatus(t, countdown.isDue);
  // Joined: the server says so, or the player is in the participants list.
  const joined = t.joined || (user != null && (participants.data?.some((p) => p.userId === user.id) ?? false));
  const playable = joined && isOpenForPlay(status, t.endTime);
  const missing = playersMissing(t);

  // And asks the server once for the real status.
  useEffect(() => {
    if (countdown.isDue && t.status === "upcoming") void qc.invalidateQueries({ queryKey: tournamentKeys.detail(t.id) });
  }, [countdown.isDue, t.status, t.id, qc]);

  const requested = params.get("tab") as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) && (requested !== "play" || joined) ? requested : "overview";
  const inlinePlay = params.get("play") === "true";
  // The tournament's socket, while something on the page reads it: play here, or the live standings.
  const socket = useTournamentSocket(t.id, {
    enabled: inlinePlay
      ? (t.status === "live" || t.status === "upcoming") && (t.joined || t.format === "live_show")
      : tab === "leaderboard" && t.status === "live",
  });
  const setTab = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === "overview") next.delete("tab");
    else next.set("tab", value);
    setParams(next, { replace: true });
  };
  const leaveInlinePlay = () => {
    const next = new URLSearchParams(params);
    next.delete("play");
    setParams(next);
  };
  const startInlinePlay = () => {
    toast.info(JOIN.entering);
    const next = new URLSearchParams(params);
    next.set("play", "true");
    setParams(next);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <Link to="/tournaments" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="h-4 w-4" aria-hidden /> All Tournaments
      </Link>

      <header className="relative mt-4 overflow-hidden rounded-2xl">
        <TournamentImage tournament={t} className="h-48 w-full sm:h-64" />
        <div className="absolute inset-0 bg-gradient-to-t from-black/85 via-black/40 to-transparent" />
        <div className="absolute inset-x-0 bottom-0 p-5 text-white sm:p-8">
          <div className="flex flex-wrap gap-2">
            <Badge variant={t.isFree ? "success" : "default"}>{feeLabel(t)}</Badge>
            <StatusBadge status={status} />
            {isPractice(t) && <Badge variant="secondary">Practice</Badge>}
            {t.invitation && (
              <Badge variant="outline" className="border-white/40 text-white" title={CUSTOM.privateNote}>
                {CUSTOM.privateBadge}
              </Badge>
            )}
            <Badge variant="outline" className="border-white/40 text-white">
              {FORMAT_LABEL[t.format].title}
            </Badge>
          </div>
          <h1 className="mt-3 text-2xl font-bold sm:text-4xl">{t.title}</h1>
          <p className="mt-1 text-sm text-white/80">{t.categoryName}</p>
        </div>
      </header>

      {t.status === "upcoming" && !t.isFree && missing > 0 && (
        <div role="status" className="mt-4 flex items-center gap-2 rounded-lg border border-warning/50 bg-warning/10 px-4 py-3 text-sm">
          <Hourglass className="h-4 w-4 shrink-0 text-warning" aria-hidden />
          Waiting for {missing} more players to start
        </div>
      )}

      {t.featured && t.status === "upcoming" && <FeaturedPanel tournamentId={t.id} registration={t.featured} />}

      {t.invitation?.inviteCode && t.invitation.invitePath && t.status !== "completed" && t.status !== "cancelled" && (
        <section aria-label={CUSTOM.yourInvite} className="mt-4 space-y-3 rounded-lg border border-primary/40 bg-primary/5 p-4">
          <h2 className="font-semibold">{CUSTOM.yourInvite}</h2>
          <p className="text-sm text-muted-foreground">{CUSTOM.yourInviteDescription}</p>
          <InviteShare inviteCode={t.invitation.inviteCode} invitePath={t.invitation.invitePath} />
        </section>
      )}

      <div className="mt-6">
        <TournamentStats tournament={t} status={status} countdownLabel={countdown.label} />
      </div>

      {inlinePlay ? (
        <div className="mt-8">
          <PlayGate tournament={t} socket={socket} onBack={leaveInlinePlay} />
        </div>
      ) : (
        <Tabs value={tab} onValueChange={setTab} className="mt-8">
          <TabsList aria-label="Tournament sections">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            {joined && (
              <TabsTrigger value="play" disabled={!playable}>
                Play
              </TabsTrigger>
            )}
            <TabsTrigger value="leaderboard">Leaderboard</TabsTrigger>
            <TabsTrigger value="participants">Participants</TabsTrigger>
            <TabsTrigger value="scoring">How Scoring Works</TabsTrigger>
          </TabsList>

          <TabsContent value="overview">
            <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
              <Card>
                <CardHeader>
                  <CardTitle>About this tournament</CardTitle>
                </CardHeader>
                <CardContent className="space-y-4 text-sm">
                  <p className="whitespace-pre-line text-muted-foreground">{t.description}</p>
                  <p>
                    <span className="text-muted-foreground">Format:</span> {FORMAT_LABEL[t.format].description}
                  </p>
                  <ul className="grid gap-2 sm:grid-cols-2">
                    <li>
                      <span className="text-muted-foreground">Questions:</span> {t.questionCount}, {OPTIONS_PER_QUESTION} answers each
                    </li>
                    <li>
                      <span className="text-muted-foreground">Time per question:</span> {QUESTION_TIME_MS / 1000} seconds
                    </li>
                    <li>
                      <span className="text-muted-foreground">Difficulty:</span> {difficultyText()}
                    </li>
                    <li>
                      <span className="text-muted-foreground">Entry:</span> {t.isFree ? "Free" : formatDollars(t.entryFee)}
                    </li>
                  </ul>
                </CardContent>
              </Card>
              <div className="min-w-0 space-y-6">
                <StatusPanel
                  tournament={t}
                  status={status}
                  joined={joined}
                  playable={playable}
                  countdownLabel={countdown.label}
                  onPlayHere={startInlinePlay}
                />
                <FairnessSection tournament={t} status={status} />
              </div>
            </div>
          </TabsContent>

          {joined && (
            <TabsContent value="play">
              {playable ? (
                <PlayChoice tournament={t} onPlayHere={startInlinePlay} />
              ) : (
                <EmptyState icon={Hourglass} title="Tournament Not Live Yet" description="Play opens when the tournament is live." />
              )}
            </TabsContent>
          )}

          <TabsContent value="leaderboard">
            <LeaderboardTab tournament={t} socket={socket} userId={user?.id} />
          </TabsContent>
          <TabsContent value="participants">
            <ParticipantsList tournamentId={t.id} userId={user?.id} />
          </TabsContent>
          <TabsContent value="scoring">
            <Card>
              <CardContent className="pt-6">
                <ScoringRules format={t.format} />
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}

function PlayChoice({ tournament: t, onPlayHere }: { tournament: TournamentDetail; onPlayHere(): void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
        <Play className="h-10 w-10 text-primary" aria-hidden />
        <div>
          <h2 className="text-lg font-semibold">The tournament is live</h2>
          <p className="text-sm text-muted-foreground">
            {t.format === "live_show"
              ? FORMAT_LABEL.live_show.description
              : "Each question has its own timer, which starts when the question appears."}
          </p>
        </div>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={onPlayHere}>
            <Play className="h-4 w-4" aria-hidden /> Play Here
          </Button>
          <Button variant="outline" asChild>
            <Link to={`/tournaments/${t.id}/play`} onClick={() => toast.info(JOIN.entering)}>
              <Maximize2 className="h-4 w-4" aria-hidden /> Full Screen
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
