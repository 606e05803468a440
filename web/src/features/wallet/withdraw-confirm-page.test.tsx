import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { ACCOUNT, AUTH, EMAIL, TAX } from "@common/messages";
import userEvent from "@testing-library/user-event";
import type { Transaction } from "@common/api/types";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import WithdrawConfirmPage from "./withdraw-confirm-page";

const routes = [{ path: "/withdraw-confirm/:amount?", element: <WithdrawConfirmPage /> }];

const pendingWithdrawal: Transaction = {
  id: 9,
  userId: 7,
  amount: -10,
  type: "withdrawal",
  status: "pending",
  reference: "payout:1",
  description: "Withdrawal of $10.00 to checking account ••••6789",
  createdAt: "2026-03-01T12:00:00.000Z",
};

async function fillBank(u: ReturnType<typeof userEvent.setup>, routing = "021000021") {
  await u.type(screen.getByLabelText("Account Holder Name"), "Ada Lovelace");
  await u.type(screen.getByLabelText("Account Number"), "123456789");
  await u.type(screen.getByLabelText("Routing Number"), routing);
}

describe("withdrawal confirm page", () => {
  it.each([
    "/withdraw-confirm",
    "/withdraw-confirm/0",
    "/withdraw-confirm/abc",
    "/withdraw-confirm/0.000000001",
    "/withdraw-confirm/5.001",
  ])("rejects %s as an invalid request", async (at) => {
    fakeFetch({});
    const page = renderPage(routes, { at });
    expect(await screen.findByText("Invalid Request")).toBeVisible();
    expect(screen.getByText("Missing or invalid withdrawal amount. Please try again.")).toBeVisible();
    await waitFor(() => expect(page.location()).toBe("/dashboard"));
  });

  it("shows Insufficient Balance above the balance", async () => {
    fakeFetch({});
    renderPage(routes, { at: "/withdraw-confirm/60?method=bank_account", user: testUser({ balance: 50 }) });
    expect(await screen.findByText("Insufficient Balance")).toBeVisible();
    expect(screen.getByText("You don't have enough funds to complete this withdrawal.")).toBeVisible();
    expect(screen.getByRole("link", { name: "Return to Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(screen.queryByLabelText("Account Number")).not.toBeInTheDocument();
  });

  it("asks for every bank field", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({});
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    expect(screen.getByText(/1-3 business days/)).toBeVisible();
    expect(screen.getByText(/full account number is stored encrypted and used only to make the bank transfer/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/last 4 digits of your account number are kept/);
    await u.type(screen.getByLabelText("Account Holder Name"), "Ada Lovelace");
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Missing Information")).toBeVisible();
    expect(screen.getByText("Please fill in all bank account fields.")).toBeVisible();
    expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(0);
  });

  it("checks the routing number before sending", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({});
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u, "123456789");
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Invalid routing number")).toBeVisible();
    expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(0);
  });

  it("shows the server's refusal as Withdrawal Error", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "POST /api/withdrawal/confirm": () => ({ status: 400, body: { message: "Cannot withdraw more than your available balance" } }),
    });
    const page = renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Withdrawal Error")).toBeVisible();
    expect(screen.getByText("Cannot withdraw more than your available balance")).toBeVisible();
    expect(page.location()).toBe("/withdraw-confirm/10?method=bank_account");
  });

  it("shows a W-9 refusal with the way to the tax form", async () => {
    const u = userEvent.setup();
    const message = TAX.formRequired("2,000", 2026);
    fakeFetch({ "POST /api/withdrawal/confirm": () => ({ status: 403, body: { code: "tax_form_required", message } }) });
    const page = renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    const alert = await screen.findByRole("alert", { name: "Tax information required" });
    expect(within(alert).getByText(message)).toBeVisible();
    await u.click(within(alert).getByRole("link", { name: TAX.formRequiredLink }));
    await waitFor(() => expect(page.location()).toBe("/profile?tab=tax"));
  });

  it("falls back to 'Failed to confirm withdrawal' when the server gives no message", async () => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/withdrawal/confirm": () => ({ status: 502 }) });
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Withdrawal Error")).toBeVisible();
    expect(screen.getByText("Failed to confirm withdrawal")).toBeVisible();
    expect(document.body.textContent).not.toMatch(/502/);
  });

  it("sends the bank account, says the withdrawal is requested, when it arrives and where to follow it", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "POST /api/withdrawal/confirm": () => ({
        body: {
          balance: 40,
          transaction: pendingWithdrawal,
          payout: { id: 1, amount: 10, status: "pending", accountLast4: "6789", createdAt: pendingWithdrawal.createdAt },
        },
      }),
      "GET /api/session": () => ({ body: { user: testUser({ balance: 40 }) } }),
    });
    const page = renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("radio", { name: "savings" }));
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));

    expect(await screen.findByText("Withdrawal Requested")).toBeVisible();
    expect(
      screen.getByText(
        "$10.00 is on its way to your bank account and should arrive in 1-3 business days. Follow it under Transaction History.",
      ),
    ).toBeVisible();
    expect(document.body.textContent).not.toMatch(/has been withdrawn|Withdrawal Successful/);
    await waitFor(() => expect(page.location()).toBe("/dashboard?tab=transactions"));
    expect(server.calls("POST /api/withdrawal/confirm")[0]!.body).toEqual({
      amount: 10,
      withdrawalMethod: "bank_account",
      bankAccount: { accountHolderName: "Ada Lovelace", accountNumber: "123456789", routingNumber: "021000021", accountType: "savings" },
    });
  });

  it("shows an unverified player the banner, sends a new link, and shows the server's email_unverified refusal", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "POST /api/user/email/verify/resend": () => ({ body: { message: EMAIL.verificationSent("quiz@example.com") } }),
      "POST /api/withdrawal/confirm": () => ({ status: 403, body: { code: "email_unverified", message: EMAIL.unverified } }),
    });
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account", user: testUser({ emailVerified: false }) });
    const banner = screen.getByRole("region", { name: EMAIL.bannerTitle });
    expect(banner).toHaveTextContent(EMAIL.bannerText("quiz@example.com"));
    await u.click(within(banner).getByRole("button", { name: EMAIL.resend }));
    expect(await screen.findByText("Verification link sent")).toBeVisible();
    expect(screen.getByText(EMAIL.verificationSent("quiz@example.com"))).toBeVisible();
    expect(server.calls("POST /api/user/email/verify/resend")).toHaveLength(1);

    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Withdrawal Error")).toBeVisible();
    expect(screen.getByText(EMAIL.unverified)).toBeVisible();
  });

  it("shows no banner to a verified player", () => {
    fakeFetch({});
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    expect(screen.queryByRole("region", { name: EMAIL.bannerTitle })).not.toBeInTheDocument();
  });

  it("sends one Idempotency-Key per visit: pressing again after a failure resends it, a new visit makes a new one", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "POST /api/withdrawal/confirm": () => ({ status: 502 }) });
    const first = renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    expect(await screen.findByText("Withdrawal Error")).toBeVisible();
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    await waitFor(() => expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(2));
    const [a, b] = server.calls("POST /api/withdrawal/confirm").map((r) => r.headers.get("Idempotency-Key"));
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBe(a);

    first.unmount();
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    await waitFor(() => expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(3));
    const c = server.calls("POST /api/withdrawal/confirm")[2]!.headers.get("Idempotency-Key");
    expect(c).toMatch(/^[0-9a-f-]{36}$/);
    expect(c).not.toBe(a);
  });

  it("asks for the password when the server wants a step-up, then sends the withdrawal once more", async () => {
    const u = userEvent.setup();
    let steppedUp = false;
    const server = fakeFetch({
      "POST /api/withdrawal/confirm": () =>
        steppedUp
          ? {
              body: {
                balance: 40,
                transaction: pendingWithdrawal,
                payout: { id: 1, amount: 10, status: "pending", accountLast4: "6789", createdAt: pendingWithdrawal.createdAt },
              },
            }
          : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": (req) => {
        if ((req.body as { password: string }).password !== "my-password") {
          return { status: 400, body: { code: "wrong_password", message: ACCOUNT.passwordWrong } };
        }
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
      "GET /api/session": () => ({ body: { user: testUser({ balance: 40 }) } }),
    });
    const page = renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account" });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));

    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(within(dialog).getByText(AUTH.stepUpRequired)).toBeVisible();
    expect(within(dialog).queryByLabelText("Authentication code")).not.toBeInTheDocument();
    await u.type(within(dialog).getByLabelText("Password"), "wrong-one");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText(ACCOUNT.passwordWrong)).toBeVisible();
    await u.clear(within(dialog).getByLabelText("Password"));
    await u.type(within(dialog).getByLabelText("Password"), "my-password");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));

    expect(await screen.findByText("Withdrawal Requested")).toBeVisible();
    await waitFor(() => expect(page.location()).toBe("/dashboard?tab=transactions"));
    expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(2);
    expect(server.calls("POST /api/auth/step-up").at(-1)!.body).toEqual({ password: "my-password" });
  });

  it("with 2FA on, the step-up asks for a code too; cancelling shows the refusal", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "POST /api/withdrawal/confirm": () => ({ status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } }),
    });
    renderPage(routes, { at: "/withdraw-confirm/10?method=bank_account", user: testUser({ twoFactorEnabled: true }) });
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $10.00" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(within(dialog).getByLabelText("Authentication code")).toBeVisible();
    await u.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("Withdrawal Error")).toBeVisible();
    expect(screen.getByText(AUTH.stepUpRequired)).toBeVisible();
    expect(server.calls("POST /api/withdrawal/confirm")).toHaveLength(1);
  });
});

describe("withdrawal confirm page, closed loop", () => {
  const wallet = {
    balance: 50,
    withdrawableBalance: 50,
    heldBalance: 0,
    cardRefundable: 30,
    heldReason: null,
    nextReleaseAt: null,
    owed: 0,
    frozen: null,
  };
  const cardRow: Transaction = {
    ...pendingWithdrawal,
    id: 8,
    amount: -30,
    status: "completed",
    reference: "cardrefund:pi_sbx_1:abc",
    description: "Refund to card …4242 ($30.00, withdrawal)",
  };

  it("shows the card part and the bank part before and after: back to the card ending 4242, the rest to the bank", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "GET /api/wallet": () => ({ body: wallet }),
      "POST /api/withdrawal/confirm": () => ({
        body: {
          balance: 0,
          transaction: { ...pendingWithdrawal, amount: -20 },
          payout: { id: 1, amount: 20, status: "pending", accountLast4: "6789", createdAt: pendingWithdrawal.createdAt },
          cardRefunds: [
            { amount: 30, cardLast4: "4242", status: "completed", message: "$30.00 back to your card ending 4242", transaction: cardRow },
          ],
          cardAmount: 30,
          bankAmount: 20,
          bankMessage: "$20.00 to your bank account, 1-3 business days",
        },
      }),
      "GET /api/session": () => ({ body: { user: testUser({ balance: 0 }) } }),
    });
    renderPage(routes, { at: "/withdraw-confirm/50?method=bank_account", user: testUser({ balance: 50 }) });
    expect(await screen.findByTestId("card-part")).toHaveTextContent("$30.00");
    expect(screen.getByTestId("bank-part")).toHaveTextContent("$20.00");
    await fillBank(u);
    await u.click(screen.getByRole("button", { name: "Withdraw $50.00" }));

    const parts = await screen.findByRole("list", { name: "Withdrawal parts" });
    expect(within(parts).getByText("$30.00 back to your card ending 4242")).toBeVisible();
    expect(within(parts).getByText("$20.00 to your bank account, 1-3 business days")).toBeVisible();
  });
});
