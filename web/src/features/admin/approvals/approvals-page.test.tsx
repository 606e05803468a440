// The approvals screen as a second operator uses it: what waits, approving, rejecting with a
// note, and a refusal read as a sentence.
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ApprovalView } from "@common/api/console";
import { AUTH } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import ApprovalsPage from "./approvals-page";

const approval = (o: Partial<ApprovalView> = {}): ApprovalView => ({
  id: 5,
  kind: "adjustment",
  summary: "Credit $25.00 to alice: goodwill",
  amount: 25,
  payload: {},
  status: "pending",
  requestedBy: { id: 2, username: "olga" },
  requestedAt: "2026-11-23T10:00:00.000Z",
  decidedBy: null,
  decidedAt: null,
  note: null,
  resultRef: null,
  mine: false,
  ...o,
});

const admin = testUser({ role: "admin", twoFactorEnabled: true });
const routes = [{ path: "/admin/approvals", element: <ApprovalsPage /> }];

describe("the approvals screen", () => {
  it("approves a pending request of another operator", async () => {
    const u = userEvent.setup();
    let current = approval();
    const server = fakeFetch({
      "GET /api/admin/approvals": () => ({ body: [current] }),
      "POST /api/admin/approvals/5/approve": () => {
        current = approval({ status: "approved", decidedBy: { id: 7, username: "quiz_master" } });
        return { body: current };
      },
    });
    renderPage(routes, { at: "/admin/approvals", user: admin });
    const card = (await screen.findAllByText("Credit $25.00 to alice: goodwill"))[0]!.closest("li, tr") as HTMLElement;
    expect(within(card).getByText("olga")).toBeInTheDocument();
    await u.click(within(card).getByRole("button", { name: "Approve" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText(/Note/), "ticket 12");
    await u.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect((await screen.findAllByText("Approved")).length).toBeGreaterThan(0);
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(server.calls("POST /api/admin/approvals/5/approve")[0]!.body).toEqual({ note: "ticket 12" });
  });

  it("asks for the step-up when an operator action needs one (password and code), then approves once more", async () => {
    const u = userEvent.setup();
    let steppedUp = false;
    let current = approval();
    const server = fakeFetch({
      "GET /api/admin/approvals": () => ({ body: [current] }),
      "POST /api/admin/approvals/5/approve": () => {
        if (!steppedUp) return { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } };
        current = approval({ status: "approved", decidedBy: { id: 7, username: "quiz_master" } });
        return { body: current };
      },
      "POST /api/auth/step-up": () => {
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 900_000 } };
      },
    });
    renderPage(routes, { at: "/admin/approvals", user: admin });
    const card = (await screen.findAllByText("Credit $25.00 to alice: goodwill"))[0]!.closest("li, tr") as HTMLElement;
    await u.click(within(card).getByRole("button", { name: "Approve" }));
    const note = await screen.findByRole("dialog");
    await u.click(within(note).getByRole("button", { name: "Approve" }));

    const stepUp = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(within(stepUp).getByText(AUTH.stepUpRequired)).toBeVisible();
    await u.type(within(stepUp).getByLabelText("Password"), "my-password");
    await u.type(within(stepUp).getByLabelText("Authentication code"), "123456");
    await u.click(within(stepUp).getByRole("button", { name: "Confirm" }));

    expect((await screen.findAllByText("Approved")).length).toBeGreaterThan(0);
    expect(server.calls("POST /api/admin/approvals/5/approve")).toHaveLength(2);
    expect(server.calls("POST /api/auth/step-up").at(-1)!.body).toEqual({ password: "my-password", totpCode: "123456" });
  });

  it("rejects with a note, and shows the server's refusal as a sentence", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/approvals": () => ({ body: [approval()] }),
      "POST /api/admin/approvals/5/reject": () => ({
        status: 409,
        body: { code: "approval_decided", message: "This request was already approved." },
      }),
    });
    renderPage(routes, { at: "/admin/approvals", user: admin });
    const card = (await screen.findAllByText("Credit $25.00 to alice: goodwill"))[0]!.closest("li, tr") as HTMLElement;
    await u.click(within(card).getByRole("button", { name: "Reject" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText(/Note/), "no ticket");
    await u.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(await screen.findByText("This request was already approved.")).toBeInTheDocument();
    expect(server.calls("POST /api/admin/approvals/5/reject")[0]!.body).toEqual({ note: "no ticket" });
  });

  it("does not offer the requester a decision on their own request", async () => {
    fakeFetch({ "GET /api/admin/approvals": () => ({ body: [approval({ mine: true })] }) });
    renderPage(routes, { at: "/admin/approvals", user: admin });
    await screen.findAllByText("Credit $25.00 to alice: goodwill");
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(screen.getAllByText(/Another operator must decide/).length).toBeGreaterThan(0);
  });
});
