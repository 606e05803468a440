import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { ArrowLeft, Lock, Radio } from "lucide-react";
import { isLocked, type PlayerQuestion, type TournamentDetail } from "@common/api/tournaments";
import { FORMAT_LABEL, PLAY } from "@common/messages";
import { LEADERBOARD_POLL_MS } from "@common/spec";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useTournamentLeaderboard } from "@/features/tournaments/api";
import { ApiError, errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { useUser } from "@/lib/session";
import { toast } from "@/lib/toast";
import { useLiveLeaderboard, useNextQuestion, useSubmitAnswer } from "../api";
import { liveView, newerQuestion } from "../live-show";
import { useQuestionTimer } from "../use-question-timer";
import { timed, type TimedQuestion, type TournamentSocket } from "../use-tournament-socket";
import { ConnectionStatus } from "./connection-status";
import { NextIn, RevealCard } from "./live-reveal";
import { QuestionClock } from "./question-clock";
import { LiveStandings } from "./live-standings";
import { WaitingRoom } from "./live-waiting-room";

interface LiveShowProps {
  tournament: TournamentDetail;
  socket: TournamentSocket;
  onBack(): void;
  toolbar?: ReactNode;
}

/** What this client sent for a question: `locked` once the room took it. */
interface Sent {
  questionId: number;
  answer: string;
  locked: boolean;
}

/**
 * A live show: everyone gets each question at the same moment, the room's pushes drive the screen
 * (waiting room, question, reveal, final standings). A player answers with one press; a
 * spectator sees the leaderboard and the reveals. Without the socket the player still gets the
 * open question and answers over HTTP (polled every LEADERBOARD_POLL_MS).
 */
export function LiveShow({ tournament: t, socket, onBack, toolbar }: LiveShowProps) {
  const { user } = useUser();
  const player = t.joined;
  const status = socket.status ?? t.status;
  const next = useNextQuestion(t.id, socket);
  const answer = useSubmitAnswer(t.id, socket);
  const board = useLiveLeaderboard(t.id, socket, { enabled: status === "live" });
  const [fetched, setFetched] = useState<TimedQuestion | null>(null);
  const [sent, setSent] = useState<Sent | null>(null);
  const [closedId, setClosedId] = useState<number | null>(null);

  const held = newerQuestion(socket.question, fetched);
  const view = liveView({ status, show: socket.show, question: held, reveal: socket.reveal });

  // Refusals (no question open between two, the show not started) need nothing from the player:
  // the push or the next ask brings the question.
  const askForQuestion = () => next.mutate(undefined, { onSuccess: (q) => setFetched((prev) => newerQuestion(prev, timed(q))) });
  const ask = useRef(askForQuestion);
  ask.current = askForQuestion;

  // A player asks for the open question when they arrive or reconnect, and when the show is on
  // a question they do not hold (they joined late or missed the push).
  const missing = player && status === "live" && (view.kind === "open" || view.kind === "between");
  const openIndex = view.kind === "open" ? view.index : -1;
  useEffect(() => {
    if (missing) ask.current();
  }, [missing, openIndex, socket.connected]);

  // No socket: no pushes either, so the player keeps asking.
  const polling = player && status === "live" && !socket.connected;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => ask.current(), LEADERBOARD_POLL_MS);
    return () => clearInterval(timer);
  }, [polling]);

  const submit = (q: PlayerQuestion, option: string) => {
    if (!player || answer.isPending || (sent?.questionId === q.id && sent.locked)) return;
    setSent({ questionId: q.id, answer: option, locked: false });
    answer.mutate(
      { questionId: q.id, answer: option },
      {
        onSuccess: () => setSent({ questionId: q.id, answer: option, locked: true }),
        onError: (error) => {
          setSent(null);
          toast.error("Failed to submit answer", errorMessage(error));
          if (error instanceof ApiError && error.code === "answer_window_closed") setClosedId(q.id);
        },
      },
    );
  };

  const standings = (title: string) => <LiveStandings rows={board.rows} me={board.me} userId={user?.id} title={title} />;

  let body: ReactNode;
  switch (view.kind) {
    case "waiting":
      body = (
        <WaitingRoom
          tournament={t}
          startsAt={(socket.show?.stage === "waiting" && socket.show.nextAt) || t.startTime}
          userId={user?.id}
          standingsVersion={socket.leaderboard?.version}
        />
      );
      break;
    case "question": {
      const q = view.question.question;
      const stored = q.result && isLocked(q.result) ? q.result.answer : null;
      const mine = sent?.questionId === q.id ? sent : stored ? { questionId: q.id, answer: stored, locked: true } : null;
      body = (
        <LiveQuestion
          key={q.id}
          held={view.question}
          player={player}
          mine={mine}
          closed={closedId === q.id}
          onAnswer={(option) => submit(q, option)}
        />
      );
      break;
    }
    case "reveal": {
      const r = view.reveal;
      body = (
        <div className="space-y-6">
          <RevealCard
            tournamentId={t.id}
            reveal={r}
            total={socket.show?.total ?? t.questionCount}
            question={held?.question.id === r.questionId ? held.question : null}
            player={player}
            myAnswer={sent?.questionId === r.questionId ? sent.answer : null}
            voided={socket.host?.voided.includes(r.index) ?? false}
            paused={socket.host?.paused ?? false}
          />
          {standings("Leaderboard")}
        </div>
      );
      break;
    }
    case "open":
      body = (
        <div className="space-y-6">
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
              {player ? (
                <>
                  <Spinner />
                  <p>Loading question...</p>
                </>
              ) : (
                <>
                  <p className="font-semibold">
                    Question {view.index + 1} of {view.total} is on
                  </p>
                  <p className="text-sm text-muted-foreground">Players are answering. You will see the answer when it is revealed.</p>
                  {view.closesAt && <SecondsLeft until={view.closesAt} />}
                </>
              )}
            </CardContent>
          </Card>
          {standings("Leaderboard")}
        </div>
      );
      break;
    case "between":
      body = (
        <div className="space-y-6">
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
              <p className="text-sm text-muted-foreground">{PLAY.waitForQuestion}</p>
              {view.nextAt && <NextIn at={view.nextAt} />}
            </CardContent>
          </Card>
          {standings("Leaderboard")}
        </div>
      );
      break;
    case "over":
      body = (
        <div className="space-y-6">
          <ShowOver tournamentId={t.id} userId={user?.id} />
          {socket.reveal && (
            <RevealCard
              tournamentId={t.id}
              reveal={socket.reveal}
              total={socket.show?.total ?? t.questionCount}
              question={held?.question.id === socket.reveal.questionId ? held.question : null}
              player={player}
              myAnswer={sent?.questionId === socket.reveal.questionId ? sent.answer : null}
              voided={socket.host?.voided.includes(socket.reveal.index) ?? false}
            />
          )}
        </div>
      );
      break;
  }

  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="ghost" onClick={onBack} className="-ml-2">
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Tournament
        </Button>
        <Badge variant="destructive" className="gap-1">
          <Radio className="h-3 w-3" aria-hidden /> {FORMAT_LABEL.live_show.title}
        </Badge>
        {!player && <Badge variant="outline">Watching</Badge>}
        <ConnectionStatus socket={socket} />
        <div className="ml-auto">{toolbar}</div>
      </div>
      {body}
    </div>
  );
}

interface LiveQuestionProps {
  held: TimedQuestion;
  player: boolean;
  /** What this player sent for this question (locked once the room took it). */
  mine: Sent | null;
  /** The room said the window had closed. */
  closed: boolean;
  onAnswer(option: string): void;
}

/** The question everyone has now, on the shared clock: one press sends the answer, which stays hidden until the reveal. */
function LiveQuestion({ held, player, mine, closed, onAnswer }: LiveQuestionProps) {
  const q = held.question;
  const msLeft = useQuestionTimer(held.deadline, true);
  const timeUp = msLeft <= 0 || closed;
  const disabled = !player || mine !== null || timeUp;

  return (
    <Card>
      <CardContent className="space-y-6 pt-6">
        <QuestionClock index={q.index} total={q.total} msLeft={msLeft} />

        <h2 data-testid="live-question" className="text-xl font-semibold leading-snug break-words sm:text-2xl">
          {q.question}
        </h2>
        <div className="grid gap-3 sm:grid-cols-2">
          {q.options.map((option, i) => {
            const chosen = mine?.answer === option;
            return (
              <button
                key={option}
                type="button"
                disabled={disabled}
                aria-pressed={chosen}
                onClick={() => onAnswer(option)}
                className={cn(
                  "flex min-w-0 items-center gap-3 rounded-lg border-2 p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                  chosen ? "border-primary bg-primary/10" : "border-border",
                  !disabled && "cursor-pointer hover:bg-muted",
                  disabled && !chosen && "opacity-60",
                )}
              >
                <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-semibold" aria-hidden>
                  {String.fromCharCode(65 + i)}
                </span>
                <span className="min-w-0 flex-1 break-words">{option}</span>
              </button>
            );
          })}
        </div>

        {mine?.locked ? (
          <p data-testid="answer-locked" role="status" className="flex items-center gap-2 rounded-lg border border-primary/50 p-4 text-sm">
            <Lock className="h-4 w-4 shrink-0" aria-hidden />
            <span className="min-w-0">
              <span className="font-semibold">Answer locked:</span> {mine.answer}. Everyone sees the answer when the time is up.
            </span>
          </p>
        ) : mine ? (
          <p role="status" className="text-sm text-muted-foreground">
            Sending your answer...
          </p>
        ) : (
          timeUp &&
          player && (
            <p role="status" className="rounded-lg border border-destructive/50 p-4 text-sm font-semibold">
              Time's up! No answer was given for this question.
            </p>
          )
        )}
        {!player && <p className="text-sm text-muted-foreground">You are watching: only players who joined can answer.</p>}
      </CardContent>
    </Card>
  );
}

/** Seconds until a server time, for a spectator's view of an open question. */
function SecondsLeft({ until }: { until: string }) {
  const ms = useQuestionTimer(Date.parse(until), true);
  return (
    <p role="timer" className="text-sm font-medium tabular-nums">
      {Math.ceil(ms / 1000)} s left
    </p>
  );
}

/** After the last reveal: the final standings (as settled) and the way to the full results. */
function ShowOver({ tournamentId, userId }: { tournamentId: number; userId: number | undefined }) {
  const { data, isLoading } = useTournamentLeaderboard(tournamentId);
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <h2 className="text-xl font-semibold">The show is over</h2>
        {isLoading ? (
          <Spinner className="mx-auto h-6 w-6" label="Loading final standings" />
        ) : (
          <LiveStandings rows={data ?? []} me={null} userId={userId} title="Final standings" />
        )}
        <Button asChild className="w-full sm:w-auto">
          <Link to={`/tournaments/${tournamentId}?tab=leaderboard`}>See the full results</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
