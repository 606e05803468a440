import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { AnswerReply } from "@common/api/tournaments";
import { QUESTION_REPORT } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { fakeWebSockets } from "@/test/fake-websocket";
import { advance, detail, locked, question, settle } from "@/test/play-fixtures";
import { renderPage } from "@/test/render-page";
import PlayPage from "./components/play-page";
import { RevealCard } from "./components/live-reveal";

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
});
afterEach(() => vi.useRealTimers());

/** A self-paced prize tournament: the answer's reply is locked in, and the question can be reported all the same. */
function selfPaced(
  answer: AnswerReply,
  report: () => { status?: number; body?: unknown } = () => ({ status: 201, body: { id: 1, message: QUESTION_REPORT.sent } }),
) {
  return fakeFetch({
    "GET /api/tournaments/9": () => ({ body: detail() }),
    "GET /api/tournaments/9/participants": () => ({ body: [] }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "POST /api/tournaments/9/next": () => ({ body: question(0) }),
    "POST /api/tournaments/9/answer": () => ({ body: answer }),
    "POST /api/questions/100/report": report,
  });
}

async function answerAndOpenReport() {
  renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], { at: "/tournaments/9/play" });
  await settle();
  fireEvent.click(screen.getByRole("radio", { name: /^Venus\b/ }));
  fireEvent.click(screen.getByRole("button", { name: "Submit Answer" }));
  await settle();
  fireEvent.click(screen.getByRole("button", { name: "Report this question" }));
  await settle();
  return screen.getByRole("dialog", { name: "Report this question" });
}

describe("reporting a question on the play screen", () => {
  it("sends the reason and note for the question just answered, and the next question waits until the dialog closes", async () => {
    const server = selfPaced(locked("Venus"));
    const dialog = await answerAndOpenReport();
    // The result stays while the player writes: no next question is fetched.
    const fetched = server.calls("POST /api/tournaments/9/next").length;
    await advance(5_000);
    expect(server.calls("POST /api/tournaments/9/next")).toHaveLength(fetched);

    fireEvent.click(within(dialog).getByRole("radio", { name: QUESTION_REPORT.reasons.wrong_answer }));
    fireEvent.change(within(dialog).getByLabelText("Note (optional)"), { target: { value: "Mercury is right" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await settle();
    expect(server.calls("POST /api/questions/100/report")[0]!.body).toEqual({
      reason: "wrong_answer",
      note: "Mercury is right",
      tournamentId: 9,
    });
    expect(screen.getByText(QUESTION_REPORT.sent)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await advance(3_000);
    expect(server.calls("POST /api/tournaments/9/next")).toHaveLength(fetched + 1);
  });

  it("needs a reason, and shows the server's refusal in words", async () => {
    selfPaced(locked("Venus"), () => ({ status: 409, body: { code: "question_already_reported", message: QUESTION_REPORT.already } }));
    const dialog = await answerAndOpenReport();
    expect(within(dialog).getByRole("button", { name: "Send report" })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole("radio", { name: QUESTION_REPORT.reasons.typo }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await settle();
    expect(within(dialog).getByRole("alert")).toHaveTextContent(QUESTION_REPORT.already);
  });

  it("is offered at a live show's reveal, for the revealed question", async () => {
    const server = fakeFetch({ "POST /api/questions/55/report": () => ({ status: 201, body: { id: 2, message: QUESTION_REPORT.sent } }) });
    const reveal = {
      type: "reveal" as const,
      questionId: 55,
      index: 0,
      correctAnswer: "Mercury",
      explanation: null,
      distribution: [{ option: "Mercury", count: 1 }],
      you: null,
      nextAt: null,
    };
    renderPage(
      [{ path: "/x", element: <RevealCard tournamentId={9} reveal={reveal} total={10} question={null} player myAnswer={null} /> }],
      { at: "/x" },
    );
    fireEvent.click(screen.getByRole("button", { name: "Report this question" }));
    await settle();
    const dialog = screen.getByRole("dialog", { name: "Report this question" });
    fireEvent.click(within(dialog).getByRole("radio", { name: QUESTION_REPORT.reasons.unclear }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await settle();
    expect(server.calls("POST /api/questions/55/report")[0]!.body).toEqual({ reason: "unclear", tournamentId: 9 });
  });
});
