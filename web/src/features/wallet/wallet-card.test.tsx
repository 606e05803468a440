import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { WalletSummary } from "@common/api/money";
import { MONEY } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { WalletCard } from "./wallet-card";
import WithdrawConfirmPage from "./withdraw-confirm-page";

const CONFIG = { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null };

const HELD: WalletSummary = {
  balance: 50,
  withdrawableBalance: 20,
  heldBalance: 30,
  cardRefundable: 0,
  heldReason: MONEY.heldRecentDeposits(72),
  nextReleaseAt: "2026-11-24T10:00:00.000Z",
  owed: 0,
  frozen: null,
};

function renderWallet(wallet: WalletSummary) {
  fakeFetch({ "GET /api/config": () => ({ body: CONFIG }), "GET /api/wallet": () => ({ body: wallet }) });
  const user = testUser({ balance: wallet.balance });
  return renderPage([{ path: "/dashboard", element: <WalletCard user={user} /> }], { at: "/dashboard", user });
}

describe("wallet card", () => {
  it("shows the balance, what can be withdrawn now, what is on hold, why and until when", async () => {
    renderWallet(HELD);
    expect(screen.getByRole("heading", { name: "$50.00" })).toBeVisible();
    const figures = await screen.findByRole("list", { name: "Withdrawable balance" });
    expect(within(figures).getByText("Withdrawable now")).toBeVisible();
    expect(within(figures).getByText("$20.00")).toBeVisible();
    expect(within(figures).getByText("On hold")).toBeVisible();
    expect(within(figures).getByText("$30.00")).toBeVisible();
    expect(screen.getByText(MONEY.heldRecentDeposits(72), { exact: false })).toBeVisible();
    expect(screen.getByText(/More becomes withdrawable on .*2026/)).toBeVisible();
  });

  it("nothing held: no hold line", async () => {
    renderWallet({ ...HELD, withdrawableBalance: 50, heldBalance: 0, heldReason: null, nextReleaseAt: null });
    const figures = await screen.findByRole("list", { name: "Withdrawable balance" });
    expect(within(figures).getByText("$50.00")).toBeVisible();
    expect(screen.queryByText("On hold")).toBeNull();
  });

  it("the withdraw dialog shows both figures and refuses more than can be withdrawn now", async () => {
    const u = userEvent.setup();
    const page = renderWallet(HELD);
    await screen.findByRole("list", { name: "Withdrawable balance" });
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    const dialog = await screen.findByRole("dialog", { name: "Withdraw Winnings" });
    expect(within(dialog).getByText(/Withdrawable now: \$20\.00 of your \$50\.00 balance/)).toBeVisible();
    await u.type(within(dialog).getByLabelText("Amount (USD)"), "30");
    await u.selectOptions(within(dialog).getByLabelText("Withdrawal Method"), "bank_account");
    await u.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByText(MONEY.aboveWithdrawable("20.00"))).toBeVisible();
    expect(page.location()).toBe("/dashboard");
  });

  it("a frozen account shows what is owed and why, and cannot withdraw", async () => {
    renderWallet({
      ...HELD,
      balance: 0,
      withdrawableBalance: 0,
      heldBalance: 0,
      heldReason: null,
      nextReleaseAt: null,
      owed: 20,
      frozen: { reason: MONEY.frozenOwed, message: MONEY.accountFrozen("20.00"), since: "2026-11-20T10:00:00.000Z" },
    });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Account frozen: $20.00 owed")).toBeVisible();
    expect(within(alert).getByText(MONEY.accountFrozen("20.00"))).toBeVisible();
    expect(screen.getByRole("button", { name: /withdraw winnings/i })).toBeDisabled();
  });
});

describe("withdrawal confirm page and held money", () => {
  it("an amount above what can be withdrawn now gets the on-hold card with the reason", async () => {
    fakeFetch({ "GET /api/wallet": () => ({ body: HELD }) });
    renderPage([{ path: "/withdraw-confirm/:amount?", element: <WithdrawConfirmPage /> }], {
      at: "/withdraw-confirm/30?method=bank_account",
      user: testUser({ balance: 50 }),
    });
    expect(await screen.findByRole("heading", { name: "Funds on Hold" })).toBeVisible();
    expect(screen.getByText(/Requested \$30\.00; withdrawable now \$20\.00 of your \$50\.00 balance\./)).toBeVisible();
    expect(screen.getByText(MONEY.heldRecentDeposits(72), { exact: false })).toBeVisible();
  });

  it("within what can be withdrawn: the bank form, with both figures", async () => {
    fakeFetch({ "GET /api/wallet": () => ({ body: HELD }) });
    renderPage([{ path: "/withdraw-confirm/:amount?", element: <WithdrawConfirmPage /> }], {
      at: "/withdraw-confirm/20?method=bank_account",
      user: testUser({ balance: 50 }),
    });
    expect(await screen.findByRole("heading", { name: "Confirm Withdrawal" })).toBeVisible();
    expect(await screen.findByText("Withdrawable now")).toBeVisible();
    expect(screen.getByText("$20.00 of $50.00")).toBeVisible();
  });
});
