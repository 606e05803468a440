// The payouts screen as an operator works it: the queue, legacy payouts explained, a large payout
// sent for approval, the selection exported and downloaded, a batch marked paid, a payout failed
// with a reason, and the server's refusals read as sentences.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PayoutBatchView, PayoutQueue, PayoutQueueItem } from "@common/api/payouts";
import { MONEY } from "@common/messages";
import { PAYOUTS } from "@common/console-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import PayoutsPage from "./payouts-page";

const payout = (o: Partial<PayoutQueueItem> = {}): PayoutQueueItem => ({
  id: 11,
  amount: 25,
  status: "pending",
  accountLast4: "6789",
  createdAt: "2026-11-23T10:00:00.000Z",
  userId: 3,
  username: "alice",
  method: "bank_account",
  accountHolderName: "Alice Liddell",
  accountType: "checking",
  routingNumber: "021000021",
  failureReason: null,
  processedAt: null,
  accountMasked: "••••6789",
  payableByFile: true,
  batchId: null,
  approval: { state: "not_required", approvalId: null, approvedBy: null, approvedAt: null },
  ...o,
});

const batch = (o: Partial<PayoutBatchView> = {}): PayoutBatchView => ({
  id: 4,
  fileName: "ach-20261123-4.txt",
  entryCount: 2,
  total: 40,
  status: "exported",
  createdBy: { id: 7, username: "quiz_master" },
  createdAt: "2026-11-23T11:00:00.000Z",
  paidBy: null,
  paidAt: null,
  payouts: { pending: 2, paid: 0, failed: 0 },
  ...o,
});

const queueOf = (items: PayoutQueueItem[]): PayoutQueue => ({ items, approvalThreshold: 1000, truncated: false });

const admin = testUser({ role: "admin", twoFactorEnabled: true });
const routes = [{ path: "/admin/payouts", element: <PayoutsPage /> }];

/** The row (desktop) or card (phone) that shows `text`; both are in the DOM, the first will do. */
const rowOf = async (text: string) => (await screen.findAllByText(text))[0]!.closest("li, tr") as HTMLElement;

let saved: Blob[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    saved.push(blob as Blob);
    return "blob:ach";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("the payouts screen", () => {
  it("explains legacy payouts and sends a large one for approval instead of offering it for export", async () => {
    const u = userEvent.setup();
    let large = payout({
      id: 12,
      username: "bob",
      amount: 1500,
      approval: { state: "required", approvalId: null, approvedBy: null, approvedAt: null },
    });
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([payout({ id: 11, username: "carol", payableByFile: false }), large]) }),
      "GET /api/admin/payout-batches": () => ({ body: [] }),
      "POST /api/admin/payouts/12/request-approval": () => {
        large = { ...large, approval: { state: "requested", approvalId: 9, approvedBy: null, approvedAt: null } };
        return { status: 202, body: { approvalId: 9, message: PAYOUTS.approvalRequested } };
      },
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });

    const legacy = await rowOf("carol");
    expect(within(legacy).getByText(`Legacy: ${PAYOUTS.legacy}`)).toBeInTheDocument();
    expect(within(legacy).queryByRole("checkbox")).not.toBeInTheDocument();
    expect(within(legacy).getByRole("button", { name: "Mark paid" })).toBeInTheDocument();
    expect(screen.getByText(/Payouts above \$1000\.00 need a second operator's approval first/)).toBeInTheDocument();

    const row = await rowOf("bob");
    expect(within(row).queryByRole("checkbox")).not.toBeInTheDocument();
    await u.click(within(row).getByRole("button", { name: "Request approval" }));
    expect(await screen.findByText(PAYOUTS.approvalRequested)).toBeInTheDocument();
    expect((await screen.findAllByText("Approval #9 requested")).length).toBeGreaterThan(0);
    expect(server.calls("POST /api/admin/payouts/12/request-approval")).toHaveLength(1);
  });

  it("exports the selected payouts as a file the browser downloads", async () => {
    const u = userEvent.setup();
    const achText = "101 021000021...\n";
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([payout({ id: 11 }), payout({ id: 13, username: "dan", amount: 15 })]) }),
      "GET /api/admin/payout-batches": () => ({ body: [] }),
      "POST /api/admin/payouts/export": () => ({
        text: achText,
        headers: { "content-disposition": 'attachment; filename="ach-20261123-4.txt"', "x-payout-batch-id": "4" },
      }),
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });

    const exportButton = await screen.findByRole("button", { name: "Export ACH file" });
    expect(exportButton).toBeDisabled();
    await u.click(within(await rowOf("alice")).getByRole("checkbox", { name: "Select payout #11" }));
    await u.click(within(await rowOf("dan")).getByRole("checkbox", { name: "Select payout #13" }));
    expect(screen.getByText("2 selected, $40.00")).toBeInTheDocument();
    await u.click(exportButton);

    expect(await screen.findByText("Batch #4 exported")).toBeInTheDocument();
    expect(server.calls("POST /api/admin/payouts/export")[0]!.body).toEqual({ payoutIds: [11, 13] });
    expect(saved).toHaveLength(1);
    expect(await saved[0]!.text()).toBe(achText);
  });

  it("shows the server's refusal of an export as a sentence", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([payout()]) }),
      "GET /api/admin/payout-batches": () => ({ body: [] }),
      "POST /api/admin/payouts/export": () => ({
        status: 409,
        body: { code: "payout_already_exported", message: PAYOUTS.alreadyExported(11, 3) },
      }),
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });
    await u.click(within(await rowOf("alice")).getByRole("checkbox", { name: "Select payout #11" }));
    await u.click(screen.getByRole("button", { name: "Export ACH file" }));
    expect(await screen.findByText(PAYOUTS.alreadyExported(11, 3))).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it("downloads a batch again and marks it paid after confirming", async () => {
    const u = userEvent.setup();
    let current = batch();
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([]) }),
      "GET /api/admin/payout-batches": () => ({ body: [current] }),
      "GET /api/admin/payout-batches/4/file": () => ({
        text: "file again\n",
        headers: { "content-disposition": 'attachment; filename="ach-20261123-4.txt"' },
      }),
      "POST /api/admin/payout-batches/4/mark-paid": () => {
        current = batch({ status: "paid", paidBy: { id: 7, username: "quiz_master" }, payouts: { pending: 0, paid: 2, failed: 0 } });
        return { body: { batch: current, paid: 2 } };
      },
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });
    const row = await rowOf("ach-20261123-4.txt");
    await u.click(within(row).getByRole("button", { name: "Download" }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toBe("file again\n");

    await u.click(within(row).getByRole("button", { name: "Mark paid" }));
    const dialog = await screen.findByRole("dialog");
    await u.click(within(dialog).getByRole("button", { name: "Mark paid" }));
    expect(await screen.findByText("2 payouts marked paid.")).toBeInTheDocument();
    expect((await screen.findAllByText("Paid by quiz_master")).length).toBeGreaterThan(0);
    expect(server.calls("POST /api/admin/payout-batches/4/mark-paid")).toHaveLength(1);
  });

  it("fails a payout with the reason the player will read", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([payout()]) }),
      "GET /api/admin/payout-batches": () => ({ body: [] }),
      "POST /api/admin/payouts/11/failed": () => ({ body: { ...payout(), status: "failed", failureReason: "Account closed" } }),
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });
    await u.click(within(await rowOf("alice")).getByRole("button", { name: "Fail…" }));
    const dialog = await screen.findByRole("dialog");
    await u.click(within(dialog).getByRole("button", { name: "Fail payout" }));
    expect(within(dialog).getByText("Reason is required: say why.")).toBeInTheDocument();
    await u.type(within(dialog).getByLabelText(/Reason/), "Account closed");
    await u.click(within(dialog).getByRole("button", { name: "Fail payout" }));
    expect(await screen.findByText("Payout #11 failed")).toBeInTheDocument();
    expect(server.calls("POST /api/admin/payouts/11/failed")[0]!.body).toEqual({ reason: "Account closed" });
  });

  it("fails a payout of an exported file only with the bank's return, sent for a second operator's approval", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([payout({ batchId: 4 })]) }),
      "GET /api/admin/payout-batches": () => ({ body: [batch()] }),
      "POST /api/admin/payouts/11/failed": () => ({ status: 202, body: { approvalId: 31, message: PAYOUTS.returnRequested } }),
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });
    await u.click(within(await rowOf("alice")).getByRole("button", { name: "Fail…" }));
    const dialog = await screen.findByRole("dialog", { name: "Bank return of payout #11" });
    await u.type(within(dialog).getByLabelText(/Return code/), "R99");
    await u.click(within(dialog).getByRole("button", { name: "Request approval" }));
    expect(within(dialog).getByText(MONEY.returnCodeInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(MONEY.returnDateInvalid)).toBeInTheDocument();
    await u.clear(within(dialog).getByLabelText(/Return code/));
    await u.type(within(dialog).getByLabelText(/Return code/), "r01");
    await u.type(within(dialog).getByLabelText("Return date"), "2026-11-20");
    await u.click(within(dialog).getByRole("button", { name: "Request approval" }));
    expect(await screen.findByText("Approval #31 requested")).toBeInTheDocument();
    expect(server.calls("POST /api/admin/payouts/11/failed")).toHaveLength(1);
    expect(server.calls("POST /api/admin/payouts/11/failed")[0]!.body).toEqual({ returnCode: "R01", returnDate: "2026-11-20" });
  });

  it("filters the queue by the form's fields", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/payouts": () => ({ body: queueOf([]) }),
      "GET /api/admin/payout-batches": () => ({ body: [] }),
    });
    renderPage(routes, { at: "/admin/payouts", user: admin });
    expect(await screen.findByText("No payout matches these filters.")).toBeInTheDocument();
    expect(Object.fromEntries(server.calls("GET /api/admin/payouts")[0]!.query)).toEqual({ status: "pending" });
    await u.type(screen.getByLabelText("Min $"), "100");
    await u.type(screen.getByLabelText("Player"), "ali");
    await u.selectOptions(screen.getByLabelText("Status"), "All");
    await u.click(screen.getByRole("button", { name: "Apply" }));
    await vi.waitFor(() => expect(server.calls("GET /api/admin/payouts").length).toBeGreaterThan(1));
    expect(Object.fromEntries(server.calls("GET /api/admin/payouts").at(-1)!.query)).toEqual({ minAmount: "100", username: "ali" });
  });
});
