import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { FairnessReport, FlatFairnessReport, MerkleFairnessReport, RevealedQuestion } from "@common/api/fair-play";
import type { TournamentDetail } from "@common/api/tournaments";
import { fairnessCommitment, questionTree } from "@common/domain/fairness";
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

/** A v1 reveal of tournament 9 (committed before decision 015), whose commitment is the real hash of these questions. */
async function honestReport(): Promise<FlatFairnessReport> {
  return {
    scheme: "flat-v1",
    tournamentId: 9,
    commitment: await fairnessCommitment(9, SALT, QUESTIONS),
    salt: SALT,
    drawWidth: 1,
    questions: QUESTIONS,
  };
}

/** A pool of 3 slots of 3 candidates; slot s's candidate c is question 40 + 3s + c. */
const POOL = Array.from({ length: 9 }, (_, order) => revealed(Math.floor(order / 3), 40 + order, `Answer ${40 + order}`));

/**
 * A v2 reveal of tournament 9: the whole pool committed as a Merkle tree under SALT, only the
 * questions at `drawn` (orders) revealed, each with its leaf salt and proof, as the room builds it.
 */
function merkleReport(drawn: number[], pool = POOL, width = 3): MerkleFairnessReport {
  const { header, leafSalts, tree } = questionTree(9, SALT, pool);
  return {
    scheme: "merkle-v2",
    tournamentId: 9,
    commitment: tree.root,
    leafCount: header.leafCount,
    drawWidth: width,
    drawKey: header.drawKey,
    questions: drawn.map((order) => ({ ...pool[order]!, order, leafSalt: leafSalts[order]!, proof: tree.proof(order) })),
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

const cells = (result: HTMLElement, column: number) =>
  within(result)
    .getAllByRole("row")
    .slice(1)
    .map((r) => within(r).getAllByRole("cell")[column]!.textContent);

describe("tournament page: Verify fairness (v2, one Merkle leaf per question)", () => {
  it("checks each drawn question's proof in the browser, says it matches, and how many questions stay secret", async () => {
    const report = merkleReport([1, 3, 8]);
    const api = show(detail({ status: "completed", fairnessCommitment: report.commitment }), { body: report });
    await verify();

    expect(await screen.findByText(VERIFY_FAIRNESS.matches)).toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.mismatch)).not.toBeInTheDocument();
    expect(api.calls("GET /api/tournaments/9/fairness")).toHaveLength(1);
    const result = screen.getByTestId("fairness-result");
    expect(within(result).getByTestId("fairness-revealed-count")).toHaveTextContent(
      "3 of 9 committed questions were drawn and revealed; 6 stay secret",
    );
    expect(within(result).getByText(VERIFY_FAIRNESS.treeExplained)).toBeInTheDocument();
    // Published, and recomputed from the proofs: the same root twice.
    expect(within(result).getAllByText(report.commitment)).toHaveLength(2);
    expect(within(result).getByText(report.drawKey)).toBeInTheDocument();
    expect(within(result).queryByText(SALT)).not.toBeInTheDocument();
    expect(within(result).getByText("3: each player drew one question per slot from this pool")).toBeInTheDocument();
    expect(cells(result, 2)).toEqual(["Answer 41", "Answer 43", "Answer 48"]);
    expect(cells(result, 0)).toEqual(["1", "2", "3"]);
    expect(cells(result, 6)).toEqual(Array(3).fill(VERIFY_FAIRNESS.proofVerified));
    // The undrawn questions are nowhere on the page.
    expect(within(result).queryByText("Answer 40")).not.toBeInTheDocument();
  });

  it("says every question was revealed when every one was drawn (a live show)", async () => {
    const report = merkleReport([0, 1, 2], QUESTIONS, 1);
    show(detail({ status: "completed", fairnessCommitment: report.commitment }), { body: report });
    await verify();
    expect(await screen.findByText(VERIFY_FAIRNESS.matches)).toBeInTheDocument();
    expect(screen.getByTestId("fairness-revealed-count")).toHaveTextContent("All 3 committed questions were drawn and revealed");
    expect(cells(screen.getByTestId("fairness-result"), 2)).toEqual(["Mercury", 'Au, "aurum"', "1969"]);
  });

  it("says it does NOT match, and which proof fails, when a revealed answer was changed after the commitment", async () => {
    const honest = merkleReport([1, 3, 8]);
    const tampered: MerkleFairnessReport = {
      ...honest,
      questions: honest.questions.map((q) => (q.questionId === 43 ? { ...q, correctAnswer: "Changed" } : q)),
    };
    show(detail({ status: "completed", fairnessCommitment: honest.commitment }), { body: tampered });
    await verify();

    expect(await screen.findByText(VERIFY_FAIRNESS.mismatch)).toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.matches)).not.toBeInTheDocument();
    const result = screen.getByTestId("fairness-result");
    expect(cells(result, 6)).toEqual([VERIFY_FAIRNESS.proofVerified, VERIFY_FAIRNESS.proofFailed, VERIFY_FAIRNESS.proofVerified]);
    // The root the changed question leads to is shown beside the published one, and they differ.
    expect(within(result).getAllByText(honest.commitment)).toHaveLength(1);
    expect(within(result).getByText("Recomputed in your browser").nextSibling?.textContent).toMatch(/^[0-9a-f]{64}$/);
  });

  it("says it does NOT match when an undrawn question is slipped in with a made-up salt", async () => {
    const honest = merkleReport([1, 3]);
    const forged = { ...POOL[6]!, order: 6, leafSalt: "00".repeat(32), proof: merkleReport([6]).questions[0]!.proof };
    show(detail({ status: "completed", fairnessCommitment: honest.commitment }), {
      body: { ...honest, questions: [...honest.questions, forged] },
    });
    await verify();
    expect(await screen.findByText(VERIFY_FAIRNESS.mismatch)).toBeInTheDocument();
  });

  it("says it does NOT match when the reveal carries another commitment than the one published", async () => {
    show(detail({ status: "completed", fairnessCommitment: "0".repeat(64) }), { body: merkleReport([0, 4, 8]) });
    await verify();
    expect(await screen.findByText(VERIFY_FAIRNESS.mismatch)).toBeInTheDocument();
    expect(screen.getByText("Named by the reveal")).toBeInTheDocument();
  });

  it("says there is nothing to check when no question was drawn", async () => {
    const report = merkleReport([]);
    show(detail({ status: "completed", fairnessCommitment: report.commitment }), { body: report });
    await verify();
    expect(await screen.findByText(VERIFY_FAIRNESS.nothingRevealed)).toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.matches)).not.toBeInTheDocument();
    expect(screen.queryByText(VERIFY_FAIRNESS.mismatch)).not.toBeInTheDocument();
    expect(screen.getByTestId("fairness-revealed-count")).toHaveTextContent(
      "0 of 9 committed questions were drawn and revealed; 9 stay secret",
    );
  });

  it("shows the server's message when the key is not revealed yet", async () => {
    show(detail({ status: "completed" }), { status: 409, body: { code: "fairness_not_revealed", message: FAIR_PLAY.notRevealed } });
    await verify();
    expect(await screen.findByRole("alert")).toHaveTextContent(FAIR_PLAY.notRevealed);
  });
});

describe("tournament page: Verify fairness (v1, tournaments committed before decision 015)", () => {
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
    expect(within(result).queryByTestId("fairness-revealed-count")).not.toBeInTheDocument();
    expect(cells(result, 2)).toEqual(["Mercury", 'Au, "aurum"', "1969"]);
    expect(cells(result, 1)).toEqual(["Question number 31?", "Question number 32?", "Question number 33?"]);
    const rows = within(result).getAllByRole("row").slice(1);
    expect(within(rows[0]!).getAllByRole("cell")).toHaveLength(6);
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
});
