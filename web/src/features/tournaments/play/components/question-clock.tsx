import { Clock } from "lucide-react";
import { QUESTION_TIME_MS, TIMER_CAUTION_MS, TIMER_WARNING_MS } from "@common/spec";
import { Progress } from "@/components/ui/progress";
import { cn } from "@/lib/cn";

/** "Question n of 10", the seconds left and the bar: the same clock for self-paced play and the live show. */
export function QuestionClock({ index, total, msLeft }: { index: number; total: number; msLeft: number }) {
  const left = Math.min(msLeft, QUESTION_TIME_MS);
  const seconds = Math.ceil(left / 1000);
  const warning = msLeft <= TIMER_WARNING_MS;
  const caution = msLeft <= TIMER_CAUTION_MS;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">
          Question {index + 1} of {total}
        </p>
        <div
          role="timer"
          aria-label={`${seconds} seconds left`}
          data-warning={warning || undefined}
          className={cn(
            "flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold tabular-nums",
            warning ? "animate-pulse bg-destructive/15 text-destructive" : "bg-muted",
          )}
        >
          <Clock className="h-4 w-4" aria-hidden />
          {seconds}s
        </div>
      </div>
      <Progress
        value={(left / QUESTION_TIME_MS) * 100}
        label="Time left"
        indicatorClassName={warning ? "bg-destructive" : caution ? "bg-warning" : "bg-success"}
      />
    </>
  );
}
