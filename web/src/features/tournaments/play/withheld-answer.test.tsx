import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import type { AnswerResult, TournamentDetail } from "@common/api/tournaments";
import { FAIR_PLAY } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { fakeWebSockets } from "@/test/fake-websocket";
import { correct, detail, question, settle, wrong } from "@/test/play-fixtures";
import { renderPage } from "@/test/render-page";
import PlayPage from "./components/play-page";

/**
 * A scored result whose correct answer is withheld (AnswerResult.withheldUntil): the API still
 * allows the shape, so the screen keeps showing it sensibly. Self-paced prize play itself now
 * answers with a locked reply until the end (play-page.test.tsx, "prize play keeps every verdict").
 */
const withheld = (r: AnswerResult): AnswerResult => ({
  ...r,
  correctAnswer: null,
  explanation: null,
  withheldUntil: new Date(Date.now() + 3_600_000).toISOString(),
});

function play(tournament: TournamentDetail, answer: AnswerResult) {
  fakeFetch({
    "GET /api/tournaments/9": () => ({ body: tournament }),
    "GET /api/tournaments/9/participants": () => ({ body: [] }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "POST /api/tournaments/9/next": () => ({ body: question(0) }),
    "POST /api/tournaments/9/answer": () => ({ body: answer }),
  });
  renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], { at: "/tournaments/9/play" });
}

async function answerWith(name: string) {
  await settle();
  fireEvent.click(screen.getByRole("radio", { name: new RegExp(`^${name}\\b`) }));
  fireEvent.click(screen.getByRole("button", { name: "Submit Answer" }));
  await settle();
}

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
});
afterEach(() => vi.useRealTimers());

describe("play screen: a withheld correct answer", () => {
  it("says right and the points, and that the answer is shown at the end", async () => {
    play(detail(), withheld(correct));
    await answerWith("Mercury");
    expect(screen.getByText("Correct! +1100 points")).toBeInTheDocument();
    expect(screen.getByText(FAIR_PLAY.answerWithheld)).toBeInTheDocument();
    expect(screen.queryByText("Mercury orbits closest.")).not.toBeInTheDocument();
  });

  it("says wrong without naming the correct answer or marking any option correct", async () => {
    play(detail(), withheld(wrong));
    await answerWith("Venus");
    expect(screen.getByText("Incorrect answer")).toBeInTheDocument();
    expect(screen.getByText("Incorrect. 0 points")).toBeInTheDocument();
    expect(screen.getAllByText(FAIR_PLAY.answerWithheld).length).toBeGreaterThan(0);
    expect(screen.queryByText(/The correct answer was/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Correct answer")).not.toBeInTheDocument();
    // The player's own pick is still marked as theirs and wrong.
    expect(screen.getByLabelText("Your answer, incorrect")).toBeInTheDocument();
  });

  it("practice still shows the correct answer and the explanation at once", async () => {
    play(detail({ kind: "practice", isFree: true, entryFee: 0, fairnessCommitment: null }), wrong);
    await answerWith("Venus");
    expect(screen.getByText("Incorrect. The correct answer was: Mercury")).toBeInTheDocument();
    expect(screen.getByText("Mercury orbits closest.")).toBeInTheDocument();
    expect(screen.queryByText(FAIR_PLAY.answerWithheld)).not.toBeInTheDocument();
  });
});
