// How the console names difficulties, a question's place in the supply, report outcomes, and the
// supply's figures (the Questions screen's Supply tab and the overview's warning share these).
import type { QuestionReportResolution } from "@common/api/question-bank";
import type { QuestionSupplyState } from "@common/domain/question-supply";

export const DIFFICULTY_LABELS: Record<number, string> = { 1: "Easy", 2: "Medium", 3: "Hard" };

/** The status filter's options and each question's badge, in the order of QUESTION_SUPPLY_STATES. */
export const STATE_LABELS: Record<QuestionSupplyState, string> = {
  fresh: "Fresh",
  held: "In a prize tournament",
  burned: "Burned (answer shown)",
  practice_only: "Practice only",
  retired: "Retired by an operator",
};

export const STATE_TONES: Record<QuestionSupplyState, "success" | "secondary" | "outline" | "destructive"> = {
  fresh: "success",
  held: "secondary",
  burned: "outline",
  practice_only: "outline",
  retired: "destructive",
};

/** When a question was burned, on its card. */
export const answerShownLabel = (iso: string) => `Answer shown ${new Date(iso).toLocaleString()}`;

/** The per-question action between prize play and practice (POST /api/admin/questions/:id/practice-only). */
export const PRACTICE_ACTION = {
  markPracticeOnly: "Practice only",
  backToPrizePlay: "Back to prize play",
  /** A held question an operator marked: it joins practice once its prize tournament has ended. */
  markedWhileHeld: "Marked for practice after its tournament",
  failed: "Could not change the question",
} as const;

export const RESOLUTION_LABELS: Record<QuestionReportResolution, string> = {
  fixed: "Fixed",
  retired: "Retired the question",
  dismissed: "Dismissed",
};

/** "2.5 days", "1 day", or a dash when nothing is scheduled in the category. */
export const daysLeftLabel = (days: number | null) => (days === null ? "—" : `${days} day${days === 1 ? "" : "s"}`);

export const SUPPLY_TEXT = {
  caption: "Question supply per category",
  intro: (showsPerDay: number) =>
    `Prize play takes fresh questions only, each once: every live show burns ten, and the schedule runs ${showsPerDay} a day in each category. Practice draws burned and practice-only questions.`,
  demoReuse:
    "This deployment reuses the public demo bank (DEMO_QUESTION_REUSE, local runs only): prize play may take questions again, so the limits below do not apply.",
  low: "Running low",
  shortfall: (slotStart: string, available: number, needed: number) =>
    `The scheduler skipped the ${new Date(slotStart).toLocaleString()} live show: ${available} fresh questions, ${needed} needed. Import or write new questions.`,
  columns: {
    category: "Category",
    fresh: "Fresh",
    held: "In prize tournaments",
    burned: (days: number) => `Burned in the last ${days} days`,
    practicePool: "Practice pool",
    daysLeft: "Days left",
  },
  split: (d: { 1: number; 2: number; 3: number }) => `${d[1]} easy · ${d[2]} medium · ${d[3]} hard`,
  empty: "No categories yet.",
  // The overview's warning (overview-page.tsx).
  overviewTitle: "Questions running low",
  overviewIntro: "Prize play needs fresh questions: import or write new ones in these categories.",
  overviewItem: (name: string, fresh: number, daysLeft: number | null) =>
    `${name}: ${fresh} fresh question${fresh === 1 ? "" : "s"}, ${daysLeft === null ? "none scheduled" : `${daysLeftLabel(daysLeft)} left`}`,
  overviewRefused: "a slot was skipped",
  overviewLink: "Open the question supply",
} as const;
