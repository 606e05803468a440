import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { FairnessReport, RevealedQuestion } from "@common/api/fair-play";
import type { TournamentDetail } from "@common/api/tournaments";
import { fairnessCommitment } from "@common/domain/fairness";
import { FAIR_PLAY, VERIFY_FAIRNESS } from "@common/messages";
import { fakeFetch, type FakeAnswer } from "@/test/fake-fetch";
import { fakeWebSockets } from "@/test/fake-websocket";
import { detail } from "@/test/play-fixtures";
import { renderPage, testUser } from "@/test/render-page";
import TournamentDetailPage from "../components/tournament-detail-page";

const SALT = "5a17".repeat(8);

const revealed = (slot: number, questionId: number, correctAnswer: string): RevealedQuestion => ({
  questionId,
  question: `Question number ${questionId}?`,
  correctAnswer,
  slot,
  issuedAt: "2026-11-20T18:00:00.000Z",
  closedAt: "2026-11-20T18:00:30.000Z",
  timesIssued: 12,
});

const QUESTIONS = [revealed(0, 31, "Mercury"), revealed(1, 32, 'Au, "aurum"'), revealed(2, 33, "1969")];

/** The reveal of tournament 9, whose commitment is the real hash of these questions. */
async function honestReport(): Promise<FairnessReport> {
  return {
    tournamentId: 9,
    commitment: await fairnessCommitment(9, SALT, QUESTIONS),
    salt: SALT,
    drawWidth: 1,
    questions: QUESTIONS,
  };
}

function show(t: TournamentDetail, fairness: FakeAnswer = { status: 404, body: { message: "unexpected" } }) {
  const api = fakeFetch({
    "GET /api/tournaments/9": () => ({ body: t }),
    "GET /api/tournaments/9/participants": () => ({ body: [] }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "GET /api/tournaments/9/fairness": () => fairness,
  });
  renderPage(
    [
      {
        path: "/tournaments/:id",
        element: (
          <Tooltip.Provider>
            <TournamentDetailPage />
          </Tooltip.Provider>
        ),
      },
    ],
    { at: "/tournaments/9", user: testUser({ level: 3 }) },
  );
  return api;
}

const verify = async () => fireEvent.click(await screen.findByRole("button", { name: "Verify fairness" }));

beforeEach(() => {
  fakeWebSockets();
});

describe("tournament page: fairness commitment", () => {
  it("shows the commitment before the start, with a plain explanation and a copy button", async () => {
    const commitment = "ab".repeat(32);
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    show(detail({ status: "upcoming", startTime: new Date(Date.now() + 3_600_000).toISOString(), fairnessCommitment: commitment }));

    expect(await screen.findByRole("heading", { name: "Fairness commitment" })).toBeInTheDocument();
    expect(screen.getByText(VERIFY_FAIRNESS.commitmentExplained)).toBeInTheDocument();
    expect(screen.getByTestId("fairness-commitment")).toHaveTextContent(commitment);
    fireEvent.click(screen.getByRole("button", { name: "Copy commitment" }));
    expect(writeText).toHaveBeenCalledWith(commitment);
    expect(screen.queryByRole("button", { name: "Verify fairness" })).not.toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it("shows nothing for practice, which publishes no commitment", async () => {
    show(detail({ kind: "practice", isFree: true, entryFee: 0, fairnessCommitment: null }));
    expect(await screen.findByRole("heading", { name: "About this tournament" })).toBeInTheDocument();
    expect(screen.queryByText("Fairness commitment")).not.toBeInTheDocument();
    expect(screen.queryByText("Verify fairness")).not.toBeInTheDocument();
  });
});

describe("tournament page: Verify fairness", () => {
  it("recomputes the hash in the browser and says it matches, listing answers, salt and candidates per slot", async () => {
    const report = await honestReport();
    const api = show(detail({ status: "completed", fairnessCommitment: report.commitment }), { body: report });
    await verify();

    expect(await screen.findByText(VERIFY_FAIRNESS.matches)).toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.mismatch)).not.toBeInTheDocument();
    expect(api.calls("GET /api/tournaments/9/fairness")).toHaveLength(1);
    const result = screen.getByTestId("fairness-result");
    expect(within(result).getAllByText(report.commitment)).toHaveLength(2);
    expect(within(result).getByText(SALT)).toBeInTheDocument();
    expect(within(result).getByText("1: every player got the same questions")).toBeInTheDocument();
    const rows = within(result).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[2]!.textContent)).toEqual(["Mercury", 'Au, "aurum"', "1969"]);
    expect(rows.map((r) => within(r).getAllByRole("cell")[1]!.textContent)).toEqual([
      "Question number 31?",
      "Question number 32?",
      "Question number 33?",
    ]);
    expect(within(rows[0]!).getByText(new Date("2026-11-20T18:00:00.000Z").toLocaleString())).toBeInTheDocument();
  });

  it("says it does NOT match when a revealed answer was changed after the commitment", async () => {
    const honest = await honestReport();
    const tampered: FairnessReport = {
      ...honest,
      drawWidth: 3,
      questions: honest.questions.map((q) => (q.questionId === 32 ? { ...q, correctAnswer: "Ag" } : q)),
    };
    show(detail({ status: "completed", fairnessCommitment: honest.commitment }), { body: tampered });
    await verify();

    expect(await screen.findByText(VERIFY_FAIRNESS.mismatch)).toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.matches)).not.toBeInTheDocument();
    const result = screen.getByTestId("fairness-result");
    // The recomputed hash is shown beside the published one, and they differ.
    expect(within(result).getAllByText(honest.commitment)).toHaveLength(1);
    expect(within(result).getByText(await fairnessCommitment(9, SALT, tampered.questions))).toBeInTheDocument();
    expect(within(result).getByText("3: each player drew one question per slot from this pool")).toBeInTheDocument();
  });

  it("says it does NOT match when the reveal carries another commitment than the one published", async () => {
    const honest = await honestReport();
    show(detail({ status: "completed", fairnessCommitment: "0".repeat(64) }), { body: honest });
    await verify();
    expect(await screen.findByText(VERIFY_FAIRNESS.mismatch)).toBeInTheDocument();
    expect(screen.getByText("Named by the reveal")).toBeInTheDocument();
  });

  it("shows the server's message when the key is not revealed yet", async () => {
    show(detail({ status: "completed" }), { status: 409, body: { code: "fairness_not_revealed", message: FAIR_PLAY.notRevealed } });
    await verify();
    expect(await screen.findByRole("alert")).toHaveTextContent(FAIR_PLAY.notRevealed);
  });
});
