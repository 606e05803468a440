import { useEffect, useRef, useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { ArrowLeft, Check, Lock, X } from "lucide-react";
import { isLocked, type AnswerReply, type PlayerQuestion } from "@common/api/tournaments";
import { FAIR_PLAY, PLAY } from "@common/messages";
import { PAUSE_AFTER_ANSWER_MS } from "@common/spec";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { toast } from "@/lib/toast";
import { useCompleteTournament, useNextQuestion, useSubmitAnswer } from "../api";
import { useQuestionTimer } from "../use-question-timer";
import { QuestionClock } from "./question-clock";
import type { TournamentSocket } from "../use-tournament-socket";
import { ConnectionStatus } from "./connection-status";
import { ReportQuestion } from "../report-question";
import { formatStart } from "@/features/tournaments/display";

type Phase =
  { kind: "loading" } | { kind: "playing" } | { kind: "finishing" } | { kind: "finished" } | { kind: "blocked"; message: string };

interface PlaySessionProps {
  tournamentId: number;
  /** The page's socket: the calls go over it while it is open, over HTTP otherwise. */
  socket: TournamentSocket;
  practice: boolean;
  /** When the tournament ends: prize play shows its results then. */
  endTime: string | null;
  onBack(): void;
  /** Extra controls beside "Back to Tournament" (the leaderboard toggle). */
  toolbar?: ReactNode;
}

/**
 * One question at a time, as the server issues them: the 30 s clock follows the server's
 * remainingMs (a reload resumes with the time already spent), an answer locks the options, and
 * after PAUSE_AFTER_ANSWER_MS the next question loads. Shared by /play and the inline view.
 * While the socket reconnects the same calls go over HTTP, so a dropped connection never stalls play.
 * Practice shows each answer's result at once; prize play locks answers in and shows nothing about
 * right or wrong until the tournament ends (docs/fair-play.md), and says so before the first question.
 */
export function PlaySession({ tournamentId, socket, practice, endTime, onBack, toolbar }: PlaySessionProps) {
  const navigate = useNavigate();
  const next = useNextQuestion(tournamentId, socket);
  const answer = useSubmitAnswer(tournamentId, socket);
  const complete = useCompleteTournament(tournamentId, socket);

  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const [question, setQuestion] = useState<PlayerQuestion | null>(null);
  const [deadline, setDeadline] = useState<number | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [result, setResult] = useState<AnswerReply | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const locked = result !== null || timedOut || answer.isPending || phase.kind !== "playing";
  const msLeft = useQuestionTimer(deadline, phase.kind === "playing" && result === null && !timedOut);

  const schedule = (fn: () => void, ms: number) => {
    clearTimeout(pause.current);
    pause.current = setTimeout(fn, ms);
  };

  const finish = () => {
    setPhase({ kind: "finishing" });
    toast.success("Tournament completed!");
    // mutateAsync: completing refreshes the tournament, which may unmount this view first.
    complete.mutateAsync().then(
      // Prize play: no score yet, so the screen says when the results come instead.
      (done) => (done.score === null ? setPhase({ kind: "finished" }) : navigate("/dashboard?tab=tournaments")),
      () => navigate(`/tournaments/${tournamentId}`),
    );
  };

  const show = (q: PlayerQuestion) => {
    setQuestion(q);
    setSelected(null);
    setResult(q.result);
    setTimedOut(false);
    setDeadline(Date.now() + q.remainingMs);
    setPhase({ kind: "playing" });
    // Answered before a reload: show it locked, then carry on.
    if (q.result) schedule(() => advance(q), PAUSE_AFTER_ANSWER_MS);
  };

  // Inside its network grace the server may still hand back a question that timed out; it then
  // arrives with no time left, times out at once and the next call moves on.
  const load = () => {
    next.mutate(undefined, {
      onSuccess: show,
      onError: (error) => {
        if (error instanceof ApiError && error.code === "no_more_questions") finish();
        else setPhase({ kind: "blocked", message: errorMessage(error) });
      },
    });
  };

  const advance = (q: PlayerQuestion) => {
    if (q.index + 1 >= q.total) finish();
    else {
      setPhase({ kind: "loading" });
      load();
    }
  };

  const submit = (choice: string) => {
    if (!question || result || answer.isPending) return;
    const q = question;
    answer.mutate(
      { questionId: q.id, answer: choice },
      {
        onSuccess: (r) => {
          setResult(r);
          if (isLocked(r)) toast.info(PLAY.answerLocked);
          else if (r.isCorrect)
            toast.success("Correct answer!", `+${r.pointsEarned} points${r.xpEarned > 0 ? ` and +${r.xpEarned} XP` : ""}`);
          else
            toast.error(
              "Incorrect answer",
              r.correctAnswer === null ? FAIR_PLAY.answerWithheld : `The correct answer was: ${r.correctAnswer}`,
            );
          schedule(() => advance(q), PAUSE_AFTER_ANSWER_MS);
        },
        onError: (error) => {
          toast.error("Failed to submit answer", errorMessage(error));
          // With time left the player may try again; at zero the question is gone.
          if (deadline !== null && Date.now() >= deadline) {
            setTimedOut(true);
            schedule(() => advance(q), PAUSE_AFTER_ANSWER_MS);
          }
        },
      },
    );
  };

  // The latest closures for timers and effects.
  const latest = useRef({ load, submit, advance });
  latest.current = { load, submit, advance };

  useEffect(() => {
    latest.current.load();
    return () => clearTimeout(pause.current);
  }, []);

  // At zero: an option chosen but not sent is auto-submitted; with none the server times it out.
  useEffect(() => {
    if (phase.kind !== "playing" || !question || msLeft > 0 || result || timedOut || answer.isPending) return;
    if (selected) latest.current.submit(selected);
    else {
      setTimedOut(true);
      schedule(() => latest.current.advance(question), PAUSE_AFTER_ANSWER_MS);
    }
  }, [msLeft, phase.kind, question, result, timedOut, selected, answer.isPending]);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="ghost" onClick={onBack} className="-ml-2">
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Tournament
        </Button>
        {practice && <Badge variant="secondary">Practice Mode</Badge>}
        <ConnectionStatus socket={socket} />
        <div className="ml-auto">{toolbar}</div>
      </div>

      {!practice && phase.kind !== "finished" && (
        <p role="note" className="flex items-start gap-2 rounded-lg border border-border bg-muted/40 p-3 text-sm text-muted-foreground">
          <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {PLAY.verdictAtEnd}
        </p>
      )}

      {phase.kind === "finished" ? (
        <FinishedCard endTime={endTime} onBack={onBack} />
      ) : phase.kind === "blocked" ? (
        <Card>
          <CardContent className="py-10 text-center">
            <p className="font-medium">{phase.message}</p>
            <Button variant="outline" className="mt-4" onClick={onBack}>
              Back to Tournament
            </Button>
          </CardContent>
        </Card>
      ) : phase.kind === "finishing" ? (
        <div className="flex flex-col items-center gap-3 py-16 text-muted-foreground">
          <Spinner />
          <p>Saving your results...</p>
        </div>
      ) : !question || phase.kind === "loading" ? (
        <div className="flex flex-col items-center gap-3 py-16 text-muted-foreground">
          <Spinner />
          <p>Loading question...</p>
        </div>
      ) : (
        <QuestionCard
          question={question}
          msLeft={msLeft}
          selected={selected}
          result={result}
          timedOut={timedOut}
          locked={locked}
          submitting={answer.isPending}
          onSelect={setSelected}
          onSubmit={() => selected && submit(selected)}
          report={
            <ReportQuestion
              questionId={question.id}
              tournamentId={tournamentId}
              // The next question (and its clock) waits while the player writes the report.
              onOpenChange={(open) => (open ? clearTimeout(pause.current) : schedule(() => advance(question), PAUSE_AFTER_ANSWER_MS))}
            />
          }
        />
      )}
    </div>
  );
}

/** Prize play after the last answer: the results come when the tournament ends. */
export function FinishedCard({ endTime, onBack }: { endTime: string | null; onBack(): void }) {
  const navigate = useNavigate();
  return (
    <Card>
      <CardContent className="space-y-4 py-10 text-center">
        <p role="status" className="font-medium">
          {endTime === null ? PLAY.verdictAtEnd : PLAY.resultsAtEnd(formatStart(endTime))}
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={() => navigate("/dashboard?tab=tournaments")}>My Tournaments</Button>
          <Button variant="outline" onClick={onBack}>
            Back to Tournament
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

interface QuestionCardProps {
  question: PlayerQuestion;
  msLeft: number;
  selected: string | null;
  result: AnswerReply | null;
  timedOut: boolean;
  locked: boolean;
  submitting: boolean;
  onSelect(option: string): void;
  onSubmit(): void;
  /** Offered once the result (or the time-out) is shown. */
  report: ReactNode;
}

function QuestionCard({ question, msLeft, selected, result, timedOut, locked, submitting, onSelect, onSubmit, report }: QuestionCardProps) {
  const headingId = `question-${question.id}`;
  // A locked answer (a live show's, before its reveal) says nothing about right or wrong.
  const scored = result && !isLocked(result) ? result : null;

  return (
    <Card>
      <CardContent className="space-y-6 pt-6">
        <QuestionClock index={question.index} total={question.total} msLeft={msLeft} />

        <h2 id={headingId} className="text-xl font-semibold leading-snug sm:text-2xl">
          {question.question}
        </h2>
        <fieldset disabled={locked}>
          <div role="radiogroup" aria-labelledby={headingId} className="grid gap-3 sm:grid-cols-2">
            {question.options.map((option, i) => {
              // A withheld answer names no option; a right pick is still marked right.
              const isCorrect =
                scored !== null &&
                (option === scored.correctAnswer || (scored.isCorrect && scored.correctAnswer === null && option === selected));
              const isWrongPick = scored !== null && !scored.isCorrect && option === selected;
              return (
                <label
                  key={option}
                  className={cn(
                    "flex cursor-pointer items-center gap-3 rounded-lg border-2 p-4 text-left transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring",
                    selected === option ? "border-primary bg-primary/10" : "border-border hover:bg-muted",
                    isCorrect && "border-success bg-success/15",
                    isWrongPick && "border-destructive bg-destructive/15",
                    locked && "cursor-default",
                  )}
                >
                  <input
                    type="radio"
                    name={`answer-${question.id}`}
                    value={option}
                    checked={selected === option}
                    onChange={() => onSelect(option)}
                    disabled={locked}
                    className="sr-only"
                  />
                  <span
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-semibold"
                    aria-hidden
                  >
                    {String.fromCharCode(65 + i)}
                  </span>
                  <span className="flex-1">{option}</span>
                  {isCorrect && <Check className="h-5 w-5 text-success" aria-label="Correct answer" />}
                  {isWrongPick && <X className="h-5 w-5 text-destructive" aria-label="Your answer, incorrect" />}
                </label>
              );
            })}
          </div>
        </fieldset>

        {scored && (
          <div
            role="status"
            className={cn("rounded-lg border p-4 text-sm", scored.isCorrect ? "border-success/50" : "border-destructive/50")}
          >
            <p className="font-semibold">
              {scored.isCorrect
                ? `Correct! +${scored.pointsEarned} points`
                : scored.correctAnswer === null
                  ? `Incorrect. ${scored.pointsEarned} points`
                  : `Incorrect. The correct answer was: ${scored.correctAnswer}`}
            </p>
            {scored.correctAnswer === null ? (
              <p className="mt-1 text-muted-foreground">{FAIR_PLAY.answerWithheld}</p>
            ) : (
              scored.explanation && <p className="mt-1 text-muted-foreground">{scored.explanation}</p>
            )}
          </div>
        )}
        {result && isLocked(result) && (
          <p role="status" className="rounded-lg border p-4 text-sm font-semibold">
            {PLAY.answerLocked}
          </p>
        )}
        {timedOut && !result && (
          <p role="status" className="rounded-lg border border-destructive/50 p-4 text-sm font-semibold">
            Time's up! No answer was given for this question.
          </p>
        )}
        {(result || timedOut) && <div className="flex justify-end">{report}</div>}

        <Button size="lg" className="w-full" disabled={!selected || locked} onClick={onSubmit}>
          {submitting ? "Submitting..." : "Submit Answer"}
        </Button>
      </CardContent>
    </Card>
  );
}
