// How the console names difficulties, statuses and report outcomes.
import type { QuestionReportResolution } from "@common/api/question-bank";

export const DIFFICULTY_LABELS: Record<number, string> = { 1: "Easy", 2: "Medium", 3: "Hard" };

export const STATUS_LABELS = {
  active: "Active",
  retired: "Retired by an operator",
  prize_retired: "Retired from prize play (uses)",
} as const;

export const RESOLUTION_LABELS: Record<QuestionReportResolution, string> = {
  fixed: "Fixed",
  retired: "Retired the question",
  dismissed: "Dismissed",
};
