import { Check } from "lucide-react";
import type { PlayerQuestion } from "@common/api/tournaments";
import { REVEAL_PAUSE_MS } from "@common/spec";
import { PLAY } from "@common/messages";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { optionShares } from "../live-show";
import { useQuestionTimer } from "../use-question-timer";
import type { RevealFrame } from "../use-tournament-socket";
import { ReportQuestion } from "../report-question";

interface RevealCardProps {
  tournamentId: number;
  reveal: RevealFrame;
  total: number;
  /** The question as this client held it (its text); a spectator never had it. */
  question: PlayerQuestion | null;
  /** Whether the viewer plays (a spectator has no result of their own). */
  player: boolean;
  /** The option this player sent for the revealed question, when this client sent it. */
  myAnswer: string | null;
  /** The host voided the question (it counts for nobody), said by its reveal or by the host frame after it. */
  voided?: boolean;
  /** The host paused the show: the next question waits for them. */
  paused?: boolean;
}

/** A live-show question after its window closed: the answer, the player's own result, how everyone answered. */
export function RevealCard({ tournamentId, reveal, total, question, player, myAnswer, voided = false, paused = false }: RevealCardProps) {
  const shares = optionShares(reveal.distribution);
  const you = reveal.you;
  return (
    <Card data-testid="reveal">
      <CardContent className="space-y-5 pt-6">
        <p className="text-sm font-medium text-muted-foreground">
          Question {reveal.index + 1} of {total}
        </p>
        {question && <h2 className="text-xl font-semibold leading-snug break-words sm:text-2xl">{question.question}</h2>}
        <p className="rounded-lg border border-success/50 bg-success/10 p-4 font-semibold break-words">
          Correct answer: {reveal.correctAnswer}
        </p>

        {(voided || reveal.voided) && (
          <p data-testid="question-voided" className="rounded-lg border border-destructive/50 p-4 text-sm font-semibold">
            {PLAY.questionVoided}
          </p>
        )}
        {player && !(voided || reveal.voided) && (
          <p role="status" className={cn("text-sm font-semibold", you?.isCorrect ? "text-success" : "text-destructive")}>
            {you === null ? "No answer" : you.isCorrect ? `Correct! +${you.pointsEarned} points` : "Wrong answer · 0 points"}
          </p>
        )}
        {reveal.explanation && <p className="text-sm text-muted-foreground">{reveal.explanation}</p>}
        {player && (
          <div className="flex justify-end">
            <ReportQuestion questionId={reveal.questionId} tournamentId={tournamentId} />
          </div>
        )}

        <div>
          <h3 className="mb-2 text-sm font-semibold">How everyone answered</h3>
          {reveal.partial && (
            <p data-testid="answers-counting" className="mb-2 text-xs text-muted-foreground">
              {PLAY.answersStillCounting}
            </p>
          )}
          <ul className="space-y-3" aria-label="Answers per option">
            {shares.map((s) => {
              const correct = s.option === reveal.correctAnswer;
              const mine = s.option === myAnswer;
              return (
                <li key={s.option} className="min-w-0" data-correct={correct || undefined}>
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                    <span className={cn("flex min-w-0 items-center gap-1 break-words", correct && "font-semibold text-success")}>
                      {correct && <Check className="h-4 w-4 shrink-0" aria-label="Correct answer" />}
                      {s.option}
                      {mine && <span className="text-xs font-normal text-muted-foreground">(your answer)</span>}
                    </span>
                    <span className="tabular-nums text-muted-foreground">
                      {s.count} · {s.percent}%
                    </span>
                  </div>
                  <div className="mt-1 h-2 w-full overflow-hidden rounded-full bg-muted" aria-hidden>
                    <div className={cn("h-full", correct ? "bg-success" : "bg-primary/60")} style={{ width: `${s.percent}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </div>

        {reveal.nextAt ? (
          <NextIn at={reveal.nextAt} />
        ) : paused ? (
          <p className="text-sm font-medium">{PLAY.pausedByHost}</p>
        ) : (
          <p className="text-sm text-muted-foreground">That was the last question.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** "Next question in N s", to the server's time for it, never more than the pause (the clocks may disagree). */
export function NextIn({ at }: { at: string }) {
  const ms = useQuestionTimer(Date.parse(at), true);
  const seconds = Math.ceil(Math.min(ms, REVEAL_PAUSE_MS) / 1000);
  return (
    <p role="timer" className="text-sm font-medium">
      {seconds > 0 ? `Next question in ${seconds} s` : "Next question coming up"}
    </p>
  );
}
