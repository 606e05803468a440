import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { WalletCard } from "./wallet-card";

const CONFIG = { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null };

function renderWallet(balance: number) {
  fakeFetch({ "GET /api/config": () => ({ body: CONFIG }) });
  const user = testUser({ balance });
  return renderPage([{ path: "/dashboard", element: <WalletCard user={user} /> }], { at: "/dashboard", user });
}

describe("Deposit Funds dialog", () => {
  it("requires an amount and says so in the field and a toast", async () => {
    const u = userEvent.setup();
    const page = renderWallet(0);
    await u.click(screen.getByRole("button", { name: /deposit funds/i }));
    const dialog = await screen.findByRole("dialog", { name: "Deposit Funds" });
    await u.click(screen.getByRole("button", { name: "Continue to Checkout" }));

    expect(await screen.findByText("Amount is required")).toBeVisible();
    expect(screen.getByLabelText("Amount (USD)")).toHaveAttribute("aria-invalid", "true");
    expect(await screen.findByText("Deposit Error")).toBeVisible();
    expect(screen.getByText("Please enter a valid amount.")).toBeVisible();
    expect(dialog).toBeVisible();
    expect(page.location()).toBe("/dashboard");
  });

  it.each(["0", "-5"])("refuses %s as not positive", async (amount) => {
    const u = userEvent.setup();
    renderWallet(0);
    await u.click(screen.getByRole("button", { name: /deposit funds/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), amount);
    await u.click(screen.getByRole("button", { name: "Continue to Checkout" }));
    expect(await screen.findByText("Amount must be a positive number")).toBeVisible();
  });

  it("offers step 0.01 and min 0 on the amount field", async () => {
    const u = userEvent.setup();
    renderWallet(0);
    await u.click(screen.getByRole("button", { name: /deposit funds/i }));
    const input = await screen.findByLabelText("Amount (USD)");
    expect(input).toHaveAttribute("step", "0.01");
    expect(input).toHaveAttribute("min", "0");
  });

  it("refuses an amount finer than a cent instead of rounding it", async () => {
    const u = userEvent.setup();
    const page = renderWallet(0);
    await u.click(screen.getByRole("button", { name: /deposit funds/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "10.000000001");
    await u.click(screen.getByRole("button", { name: "Continue to Checkout" }));
    expect(await screen.findByText("Amount can have at most 2 decimal places")).toBeVisible();
    expect(page.location()).toBe("/dashboard");
  });

  it("goes to the checkout page with a valid amount", async () => {
    const u = userEvent.setup();
    const page = renderWallet(0);
    await u.click(screen.getByRole("button", { name: /deposit funds/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "25.50");
    await u.click(screen.getByRole("button", { name: "Continue to Checkout" }));
    await waitFor(() => expect(page.location()).toBe("/checkout/25.5"));
  });
});

describe("Withdraw Winnings dialog", () => {
  it("is disabled with nothing to withdraw", () => {
    renderWallet(0);
    expect(screen.getByRole("button", { name: /withdraw winnings/i })).toBeDisabled();
  });

  it("refuses more than the balance and a missing method", async () => {
    const u = userEvent.setup();
    renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "20.01");
    await u.click(screen.getByRole("button", { name: "Continue" }));

    expect(await screen.findByText("Cannot withdraw more than your available balance")).toBeVisible();
    expect(screen.getByText("Please select a withdrawal method")).toBeVisible();
  });

  it("checks the amount rules too", async () => {
    const u = userEvent.setup();
    renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Amount is required")).toBeVisible();
    await u.type(screen.getByLabelText("Amount (USD)"), "0");
    await u.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Amount must be a positive number")).toBeVisible();
  });

  it.each([
    ["0.99", "The minimum withdrawal is $1.00"],
    ["0.000000001", "Amount can have at most 2 decimal places"],
    ["5.001", "Amount can have at most 2 decimal places"],
  ])("refuses %s with %s and stays on the dialog", async (amount, message) => {
    const u = userEvent.setup();
    const page = renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), amount);
    await u.selectOptions(screen.getByLabelText("Withdrawal Method"), "bank_account");
    await u.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText(message)).toBeVisible();
    expect(page.location()).toBe("/dashboard");
  });

  it("names the minimum withdrawal", async () => {
    const u = userEvent.setup();
    renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    expect(await screen.findByText(/minimum withdrawal is \$1\.00/i)).toBeVisible();
  });

  it("toasts when only the method is missing", async () => {
    const u = userEvent.setup();
    renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "10");
    await u.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Withdrawal Failed")).toBeVisible();
    expect(screen.getAllByText("Please select a withdrawal method").length).toBeGreaterThan(0);
  });

  it("toasts the dialog's default error when the amount is refused (the field says why)", async () => {
    const u = userEvent.setup();
    renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "25");
    await u.selectOptions(screen.getByLabelText("Withdrawal Method"), "bank_account");
    await u.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Withdrawal Failed")).toBeVisible();
    expect(screen.getByText("There was an error processing your withdrawal. Please try again.")).toBeVisible();
    expect(screen.getByText("Cannot withdraw more than your available balance")).toBeVisible();
  });

  it("offers Bank Account only and continues to the confirmation page", async () => {
    const u = userEvent.setup();
    const page = renderWallet(20);
    await u.click(screen.getByRole("button", { name: /withdraw winnings/i }));
    await u.type(await screen.findByLabelText("Amount (USD)"), "10");
    const method = screen.getByLabelText("Withdrawal Method");
    expect([...(method as HTMLSelectElement).options].filter((o) => o.value).map((o) => o.text)).toEqual(["Bank Account"]);
    await u.selectOptions(method, "bank_account");
    await u.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(page.location()).toBe("/withdraw-confirm/10?method=bank_account"));
  });
});
