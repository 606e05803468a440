import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { Transaction } from "@common/api/types";
import { MONEY } from "@common/messages";
import { USER_KEY } from "@/lib/session";
import { deferred, fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { TRANSACTIONS_KEY } from "./api";
import PaymentSuccessPage from "./payment-success-page";

const SECRET = "pi_abc_secret_def";
const routes = [{ path: "/payment-success", element: <PaymentSuccessPage /> }];
const at = `/payment-success?payment_intent=pi_abc&payment_intent_client_secret=${SECRET}&redirect_status=succeeded`;
const ISSUE = "Payment Issue Detected";
const ISSUE_TEXT = "Your payment may not have been processed. Please check your account or try again.";

const deposit: Transaction = {
  id: 1,
  userId: 7,
  amount: 25,
  type: "deposit",
  status: "completed",
  reference: "pi_abc",
  description: "Card deposit",
  createdAt: "2026-03-01T12:00:00.000Z",
};

describe("payment result page", () => {
  it("shows a loading state while the payment is checked", async () => {
    const pending = deferred<{ body: unknown }>();
    fakeFetch({ "GET /api/payment-intent": () => pending.promise });
    renderPage(routes, { at });
    expect(await screen.findByText("Confirming your payment...")).toBeVisible();
    expect(screen.queryByText("Deposit Successful")).not.toBeInTheDocument();
    expect(screen.queryByText(ISSUE)).not.toBeInTheDocument();
  });

  it("confirms the provider's amount once, then shows Deposit Successful and refreshes the wallet", async () => {
    const server = fakeFetch({
      "GET /api/payment-intent": () => ({ body: { id: "pi_abc", status: "succeeded", amount: 25 } }),
      "POST /api/deposit/confirm": () => ({ body: { balance: 75, transaction: deposit } }),
      "GET /api/session": () => ({ body: { user: testUser({ balance: 75 }) } }),
    });
    const page = renderPage(routes, { at, user: testUser({ balance: 50 }) });
    page.queryClient.setQueryData(TRANSACTIONS_KEY, []);

    expect(await screen.findByText("Deposit Successful")).toBeVisible();
    expect(screen.getByText("$25.00 has been added to your account.")).toBeVisible();
    expect(server.calls("GET /api/payment-intent")[0]!.query.get("clientSecret")).toBe(SECRET);
    const confirms = server.calls("POST /api/deposit/confirm");
    expect(confirms).toHaveLength(1);
    expect(confirms[0]!.body).toEqual({ paymentIntentId: "pi_abc", amount: 25 });
    await waitFor(() => expect(page.queryClient.getQueryData<{ balance: number }>(USER_KEY)?.balance).toBe(75));
    expect(page.queryClient.getQueryState(TRANSACTIONS_KEY)?.isInvalidated).toBe(true);
  });

  it("without a payment (the footer's Payment Status link) shows a neutral page, not an issue", async () => {
    const server = fakeFetch({});
    renderPage(routes, { at: "/payment-success" });
    expect(await screen.findByText("Payment Status")).toBeVisible();
    expect(screen.getByText(/There is no payment to show here/)).toBeVisible();
    expect(screen.getByRole("link", { name: "View Transactions" })).toHaveAttribute("href", "/dashboard?tab=transactions");
    expect(screen.queryByText(ISSUE)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it("reports an issue when the payment cannot be retrieved", async () => {
    const server = fakeFetch({ "GET /api/payment-intent": () => ({ status: 404, body: { message: "Payment not found" } }) });
    renderPage(routes, { at });
    expect(await screen.findByText(ISSUE)).toBeVisible();
    expect(screen.getByText(ISSUE_TEXT)).toBeVisible();
    expect(screen.getByText("Payment not found")).toBeVisible();
    expect(server.calls("POST /api/deposit/confirm")).toHaveLength(0);
  });

  it("reports an issue when the payment has not succeeded", async () => {
    const server = fakeFetch({
      "GET /api/payment-intent": () => ({ body: { id: "pi_abc", status: "requires_payment_method", amount: 25 } }),
    });
    renderPage(routes, { at });
    expect(await screen.findByText(ISSUE)).toBeVisible();
    expect(screen.getByText("Payment status: requires payment method.")).toBeVisible();
    expect(server.calls("POST /api/deposit/confirm")).toHaveLength(0);
  });

  it("reports an issue when the deposit cannot be confirmed", async () => {
    fakeFetch({
      "GET /api/payment-intent": () => ({ body: { id: "pi_abc", status: "succeeded", amount: 25 } }),
      "POST /api/deposit/confirm": () => ({ status: 500 }),
    });
    renderPage(routes, { at });
    expect(await screen.findByText(ISSUE)).toBeVisible();
    expect(screen.getByText("Failed to confirm deposit")).toBeVisible();
    expect(screen.queryByText("Deposit Successful")).not.toBeInTheDocument();
  });

  it("shows a payment refused when it arrived as refunded to the card, with the server's reason", async () => {
    const message = MONEY.depositRefunded("25.00", MONEY.depositRefusedWhy.deposit_daily);
    fakeFetch({
      "GET /api/payment-intent": () => ({ body: { id: "pi_abc", status: "succeeded", amount: 25 } }),
      "POST /api/deposit/confirm": () => ({ status: 409, body: { code: "deposit_refunded", message } }),
    });
    renderPage(routes, { at });
    expect(await screen.findByText("Payment Refunded")).toBeVisible();
    expect(screen.getByText(message)).toBeVisible();
    expect(screen.queryByText(ISSUE)).not.toBeInTheDocument();
    expect(screen.queryByText("Deposit Successful")).not.toBeInTheDocument();
  });
});
