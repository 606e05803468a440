import { describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import type { AnswerReceipt } from "@common/api/fair-play";
import { VERIFY_FAIRNESS } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import VerifyReceiptPage from "./verify-receipt-page";

const receipt: AnswerReceipt = {
  v: 1,
  tournamentId: 11,
  userId: 7,
  questionId: 31,
  answer: "Rome",
  receivedAt: "2026-02-01T18:01:02.000Z",
  responseMs: 2340,
  points: 1150,
  signature: "a".repeat(64),
};

function open() {
  const api = fakeFetch({
    "POST /api/receipts/verify": (req) => ({ body: { genuine: (req.body as AnswerReceipt).answer === "Rome" } }),
  });
  // Public: a signed-out visitor can check a receipt.
  renderPage([{ path: "/verify-receipt", element: <VerifyReceiptPage /> }], { at: "/verify-receipt", user: null });
  return api;
}

const paste = (text: string) => {
  fireEvent.change(screen.getByLabelText("Receipt (JSON)"), { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Check receipt" }));
};

describe("/verify-receipt", () => {
  it("says a genuine receipt is genuine, sending it as pasted", async () => {
    const api = open();
    paste(JSON.stringify(receipt));
    expect(await screen.findByText(VERIFY_FAIRNESS.receiptGenuine)).toBeInTheDocument();
    expect(api.calls("POST /api/receipts/verify").map((r) => r.body)).toEqual([receipt]);
  });

  it("says an edited receipt is not genuine", async () => {
    open();
    paste(JSON.stringify({ ...receipt, answer: "Athens" }));
    expect(await screen.findByText(VERIFY_FAIRNESS.receiptNotGenuine)).toBeInTheDocument();
  });

  it("explains invalid JSON and a JSON that is no receipt, without asking the server", async () => {
    const api = open();
    paste("{not json");
    expect(screen.getByRole("alert")).toHaveTextContent("This is not valid JSON");
    paste(JSON.stringify({ ...receipt, signature: "nope" }));
    expect(screen.getByRole("alert")).toHaveTextContent("This is not an answer receipt: check signature.");
    expect(api.calls("POST /api/receipts/verify")).toHaveLength(0);
  });
});
