import type { TournamentFormat } from "@common/api/types";
import {
  ANSWER_GRACE_MS,
  CORRECT_ANSWER_POINTS,
  LATENCY_ALLOWANCE_MAX_MS,
  MAX_SPEED_BONUS,
  OPTIONS_PER_QUESTION,
  PAUSE_AFTER_ANSWER_MS,
  PLACEMENT_XP,
  PLATFORM_FEE_SHARE,
  PRIZE_SHARES_BPS,
  QUESTION_TIME_MS,
  QUESTIONS_PER_TOURNAMENT,
  REVEAL_PAUSE_MS,
  XP_PER_CORRECT,
} from "@common/spec";
import { TIER_BONUS } from "@common/domain/levels";
import { speedBonus } from "@common/domain/scoring";

const percent = (bps: number) => `${bps / 100}%`;
const pct = (share: number) => `${Math.round(share * 100)}%`;
const seconds = (ms: number) => `${ms / 1000} s`;
const EXAMPLE_SECONDS = [1, 2, 5] as const;

/**
 * How a live show runs (docs/product.md, "The live show"): one clock for everyone, answers locked in,
 * the reveal after the window, the next question after REVEAL_PAUSE_MS. Paid scheduled play is a live show.
 */
export function LiveShowTiming() {
  return (
    <>
      <li>
        Live show (every paid scheduled tournament): each question goes out to every player at the same moment, and everyone has the same{" "}
        {seconds(QUESTION_TIME_MS)} to answer (plus {seconds(ANSWER_GRACE_MS)} for the network). Joining late or reconnecting gives you the
        time left, not a new clock.
      </li>
      <li>
        Your answer is locked in, not marked: the correct answer, how many chose each option and your result are revealed to everyone when
        the window closes. The next question follows {seconds(REVEAL_PAUSE_MS)} after the reveal, for everyone at once.
      </li>
      <li>
        Response time counts from the moment the question was sent, less an allowance for your connection (at most{" "}
        {LATENCY_ALLOWANCE_MAX_MS} ms).
      </li>
    </>
  );
}

function SelfPacedTiming({ alone }: { alone: boolean }) {
  return (
    <li>
      {alone ? "The timer" : "Self-paced (free and practice tournaments): the timer"} starts when your question appears; the next one
      follows {seconds(PAUSE_AFTER_ANSWER_MS)} after you answer.
    </li>
  );
}

/**
 * How points, ranks, XP and prizes are worked out, from the same constants the server uses. With a
 * `format` (a tournament's page) only that format's timing; without one (the marketing pages) both.
 */
export function ScoringRules({ format }: { format?: TournamentFormat } = {}) {
  return (
    <div className="grid gap-6 text-sm md:grid-cols-2">
      <section>
        <h3 className="text-base font-semibold">Points</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>
            {QUESTIONS_PER_TOURNAMENT} questions, {OPTIONS_PER_QUESTION} answers each, {seconds(QUESTION_TIME_MS)} per question.
          </li>
          <li>
            A correct answer scores {CORRECT_ANSWER_POINTS} points plus a speed bonus of 1000 / seconds taken, at most {MAX_SPEED_BONUS}:{" "}
            {EXAMPLE_SECONDS.map((s) => `${s} s gives ${speedBonus(s * 1000)}`).join(", ")}.
          </li>
          <li>A wrong answer, or no answer when the time runs out, scores 0.</li>
          {format !== "self_paced" && <LiveShowTiming />}
          {format !== "live_show" && <SelfPacedTiming alone={format === "self_paced"} />}
        </ul>
      </section>
      <section>
        <h3 className="text-base font-semibold">Ranking</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>Players are ranked by total points.</li>
          <li>On equal points the faster total response time ranks higher, then the earlier finish.</li>
        </ul>
      </section>
      <section>
        <h3 className="text-base font-semibold">Prizes</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>
            The prize pool is {pct(1 - PLATFORM_FEE_SHARE)} of the entry fees collected; the platform keeps {pct(PLATFORM_FEE_SHARE)}.
          </li>
          <li>
            1st place wins {percent(PRIZE_SHARES_BPS[0])}, 2nd {percent(PRIZE_SHARES_BPS[1])}, 3rd {percent(PRIZE_SHARES_BPS[2])} of the
            pool.
          </li>
          <li>Practice tournaments have no prizes.</li>
        </ul>
      </section>
      <section>
        <h3 className="text-base font-semibold">Experience (XP)</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>{XP_PER_CORRECT} XP per correct answer plus a 1-5 XP speed bonus.</li>
          <li>
            Placement: {PLACEMENT_XP.first} XP for 1st, {PLACEMENT_XP.second} for 2nd, {PLACEMENT_XP.third} for 3rd, {PLACEMENT_XP.topTen}{" "}
            for 4th-10th, {PLACEMENT_XP.participation} for taking part.
          </li>
          <li>
            Intermediate players get +{pct(TIER_BONUS.Intermediate)} placement XP, Advanced +{pct(TIER_BONUS.Advanced)}, Elite +
            {pct(TIER_BONUS.Elite)}.
          </li>
        </ul>
      </section>
    </div>
  );
}
