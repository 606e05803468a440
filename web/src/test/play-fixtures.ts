// The play screen's fixtures: a live tournament (id 9) the test user joined, its questions and
// answers, and the clock helpers its tests share.
import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { AnswerLocked, AnswerResult, PlayerQuestion, TournamentDetail } from "@common/api/tournaments";

export const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
/**
 * Lets a chain of requests (tournament, participants, question) resolve. Fake timers push a 0 ms
 * timeout set during a tick to 1 ms, so this moves the clock a few milliseconds.
 */
export async function settle() {
  for (let i = 0; i < 20; i++) await advance(1);
}

export const detail = (overrides: Partial<TournamentDetail> = {}): TournamentDetail => ({
  id: 9,
  title: "Science Cup",
  description: "Physics and chemistry.",
  categoryId: 3,
  categoryName: "Science",
  entryFee: 5,
  prizePool: 42.5,
  maxParticipants: 50,
  currentParticipants: 10,
  minLevel: 1,
  startTime: new Date(Date.now() - 60_000).toISOString(),
  endTime: null,
  status: "live",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
  prizeSplit: [27.63, 10.63, 4.25],
  minPlayers: 10,
  joined: true,
  questionCount: 10,
  fairnessCommitment: "c0ffee".padEnd(64, "0"),
  featured: null,
  cancellation: null,
  invitation: null,
  ...overrides,
});

/** The same tournament's practice: results at once. */
export const practiceDetail = (overrides: Partial<TournamentDetail> = {}): TournamentDetail =>
  detail({
    title: "Science Practice",
    kind: "practice",
    isFree: true,
    entryFee: 0,
    prizePool: 0,
    maxParticipants: null,
    minPlayers: 0,
    fairnessCommitment: null,
    ...overrides,
  });

export const question = (index: number, overrides: Partial<PlayerQuestion> = {}): PlayerQuestion => ({
  id: 100 + index,
  question: `Question text ${index + 1}: which planet is closest to the Sun?`,
  options: ["Venus", "Mercury", "Mars", "Earth"],
  index,
  total: 10,
  issuedAt: new Date().toISOString(),
  deadline: new Date(Date.now() + 30_000).toISOString(),
  remainingMs: 30_000,
  result: null,
  ...overrides,
});

export const correct: AnswerResult = {
  isCorrect: true,
  pointsEarned: 1100,
  xpEarned: 15,
  correctAnswer: "Mercury",
  explanation: "Mercury orbits closest.",
  withheldUntil: null,
  responseTime: 1000,
  receipt: null,
};
export const wrong: AnswerResult = { ...correct, isCorrect: false, pointsEarned: 0, xpEarned: 0 };

/** Prize play's reply: locked in until the tournament ends, nothing about right or wrong. */
export const locked = (answer: string, revealAt = new Date(Date.now() + 3_600_000).toISOString()): AnswerLocked => ({
  locked: true,
  questionId: 100,
  answer,
  responseTime: 1000,
  revealAt,
  receipt: {
    v: 1,
    tournamentId: 9,
    userId: 7,
    questionId: 100,
    answer,
    receivedAt: new Date().toISOString(),
    responseMs: 1000,
    points: null,
    signature: "ab".repeat(32),
  },
});
