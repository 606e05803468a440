import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import CheckoutPage from "./checkout-page";

const SANDBOX = { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null };
const SECRET = "pi_sandbox123_secret_abc456";
const routes = [{ path: "/checkout/:amount?", element: <CheckoutPage /> }];

function sandboxServer(
  confirm: Parameters<typeof fakeFetch>[0][string] = () => ({ body: { status: "succeeded", paymentIntentId: "pi_sandbox123" } }),
) {
  return fakeFetch({
    "GET /api/config": () => ({ body: SANDBOX }),
    "POST /api/create-payment-intent": () => ({ body: { clientSecret: SECRET, paymentIntentId: "pi_sandbox123" } }),
    "POST /api/sandbox/confirm-payment": confirm,
  });
}

describe("checkout page", () => {
  it.each(["/checkout", "/checkout/0", "/checkout/-5", "/checkout/abc", "/checkout/10.000000001"])(
    "sends %s back to the dashboard",
    async (at) => {
      const server = sandboxServer();
      const page = renderPage(routes, { at });
      await waitFor(() => expect(page.location()).toBe("/dashboard"));
      expect(server.calls("POST /api/create-payment-intent")).toHaveLength(0);
    },
  );

  it("creates one payment intent (even under StrictMode) and shows the sandbox card form", async () => {
    const server = sandboxServer();
    renderPage(routes, { at: "/checkout/25" });

    expect(await screen.findByText("Sandbox — test cards only")).toBeVisible();
    expect(screen.getByText("4242 4242 4242 4242")).toBeVisible();
    expect(screen.getByText("4000 0000 0000 0002")).toBeVisible();
    expect(screen.getByLabelText("Card number")).toBeVisible();
    expect(screen.getByLabelText("Expiry (MM/YY)")).toBeVisible();
    expect(screen.getByLabelText("CVC")).toBeVisible();
    expect(screen.getByRole("button", { name: "Pay $25.00" })).toBeVisible();

    const creates = server.calls("POST /api/create-payment-intent");
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toEqual({ amount: 25 });
  });

  it("sends the visit's Idempotency-Key in the header; a new visit sends a new one", async () => {
    const server = sandboxServer();
    const first = renderPage(routes, { at: "/checkout/25" });
    expect(await screen.findByRole("button", { name: "Pay $25.00" })).toBeVisible();
    first.unmount();
    renderPage(routes, { at: "/checkout/25" });
    expect(await screen.findByRole("button", { name: "Pay $25.00" })).toBeVisible();
    const keys = server.calls("POST /api/create-payment-intent").map((r) => r.headers.get("Idempotency-Key"));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("shows Payment Error with the server's message and a way back", async () => {
    fakeFetch({
      "GET /api/config": () => ({ body: SANDBOX }),
      "POST /api/create-payment-intent": () => ({ status: 400, body: { message: "The maximum deposit is $1000.00" } }),
    });
    renderPage(routes, { at: "/checkout/5000" });
    expect(await screen.findByText("Payment Error")).toBeVisible();
    expect(screen.getByText("The maximum deposit is $1000.00")).toBeVisible();
    expect(screen.getByRole("link", { name: "Return to Dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("falls back to 'Failed to create payment intent' without a server message", async () => {
    fakeFetch({
      "GET /api/config": () => ({ body: SANDBOX }),
      "POST /api/create-payment-intent": () => ({ status: 500 }),
    });
    renderPage(routes, { at: "/checkout/10" });
    expect(await screen.findByText("Failed to create payment intent")).toBeVisible();
  });

  it("toasts Payment Failed when the card is declined", async () => {
    const u = userEvent.setup();
    sandboxServer(() => ({ status: 402, body: { message: "Your card was declined." } }));
    const page = renderPage(routes, { at: "/checkout/25" });
    await u.type(await screen.findByLabelText("Card number"), "4000000000000002");
    await u.type(screen.getByLabelText("Expiry (MM/YY)"), "12/34");
    await u.type(screen.getByLabelText("CVC"), "123");
    await u.click(screen.getByRole("button", { name: "Pay $25.00" }));

    expect(await screen.findByText("Payment Failed")).toBeVisible();
    expect(screen.getByText("Your card was declined.")).toBeVisible();
    expect(page.location()).toBe("/checkout/25");
  });

  it("checks the card fields before sending them", async () => {
    const u = userEvent.setup();
    const server = sandboxServer();
    renderPage(routes, { at: "/checkout/25" });
    await u.type(await screen.findByLabelText("Card number"), "4242");
    await u.type(screen.getByLabelText("Expiry (MM/YY)"), "13/30");
    await u.click(screen.getByRole("button", { name: "Pay $25.00" }));

    expect(await screen.findByText("Your card number is invalid.")).toBeVisible();
    expect(screen.getByText("Your card's expiration date is invalid.")).toBeVisible();
    expect(screen.getByText("Your card's security code is invalid.")).toBeVisible();
    expect(server.calls("POST /api/sandbox/confirm-payment")).toHaveLength(0);
  });

  it("goes to the payment result page with Stripe's query after a successful test card", async () => {
    const u = userEvent.setup();
    const server = sandboxServer();
    const page = renderPage(routes, { at: "/checkout/25" });
    await u.type(await screen.findByLabelText("Card number"), "4242424242424242");
    await u.type(screen.getByLabelText("Expiry (MM/YY)"), "12/34");
    await u.type(screen.getByLabelText("CVC"), "123");
    await u.click(screen.getByRole("button", { name: "Pay $25.00" }));

    await waitFor(() =>
      expect(page.location()).toBe(
        `/payment-success?payment_intent=pi_sandbox123&payment_intent_client_secret=${SECRET}&redirect_status=succeeded`,
      ),
    );
    expect(server.calls("POST /api/sandbox/confirm-payment")[0]!.body).toEqual({
      clientSecret: SECRET,
      cardNumber: "4242 4242 4242 4242",
      expMonth: "12",
      expYear: "34",
      cvc: "123",
    });
  });
});

describe("checkout page: responsible play", () => {
  it("asks for the date of birth before the first deposit, once, then continues to the card form", async () => {
    let dobGiven = false;
    const server = fakeFetch({
      "GET /api/config": () => ({ body: SANDBOX }),
      "POST /api/create-payment-intent": () =>
        dobGiven
          ? { body: { clientSecret: SECRET, paymentIntentId: "pi_sandbox123" } }
          : {
              status: 403,
              body: { code: "date_of_birth_required", message: "Please enter your date of birth before your first deposit or paid entry." },
            },
      "PUT /api/user/date-of-birth": () => {
        dobGiven = true;
        return { body: { dateOfBirth: "1990-05-17", limits: [], exclusion: null } };
      },
    });
    renderPage(routes, { at: "/checkout/25" });
    expect(await screen.findByText("Your date of birth")).toBeVisible();
    await userEvent.type(screen.getByLabelText("Date of birth"), "1990-05-17");
    await userEvent.click(screen.getByRole("button", { name: "Save and continue" }));

    expect(await screen.findByRole("button", { name: "Pay $25.00" })).toBeVisible();
    expect(server.calls("PUT /api/user/date-of-birth")[0]!.body).toEqual({ dateOfBirth: "1990-05-17" });
    expect(server.calls("POST /api/create-payment-intent")).toHaveLength(2);
  });

  it("shows an underage refusal where the date was entered, in the server's words", async () => {
    fakeFetch({
      "GET /api/config": () => ({ body: SANDBOX }),
      "POST /api/create-payment-intent": () => ({ status: 403, body: { code: "date_of_birth_required", message: "Date of birth needed" } }),
      "PUT /api/user/date-of-birth": () => ({
        status: 403,
        body: { code: "underage", message: "You must be at least 18 to deposit or pay entry fees where you are." },
      }),
    });
    renderPage(routes, { at: "/checkout/25" });
    await userEvent.type(await screen.findByLabelText("Date of birth"), "2015-01-01");
    await userEvent.click(screen.getByRole("button", { name: "Save and continue" }));
    expect(await screen.findByText("You must be at least 18 to deposit or pay entry fees where you are.")).toBeVisible();
  });

  it("shows a deposit-limit refusal as the readable message naming the limit", async () => {
    const message =
      "This would go over your daily deposit limit of $50.00 (the last 24 hours). You can deposit up to $20.00 now. $30.00 fits again from 25 Nov 2026, 10:00 UTC.";
    fakeFetch({
      "GET /api/config": () => ({ body: SANDBOX }),
      "POST /api/create-payment-intent": () => ({ status: 409, body: { code: "deposit_limit_reached", message } }),
    });
    renderPage(routes, { at: "/checkout/30" });
    expect(await screen.findByText(message)).toBeVisible();
  });
});

describe("checkout on a site without card payments", () => {
  it("shows a plain 'not available' state, never a test-card form", async () => {
    const server = fakeFetch({
      "GET /api/config": () => ({ body: { ...SANDBOX, paymentProvider: null } }),
      "POST /api/create-payment-intent": () => ({
        status: 503,
        body: { code: "payments_not_configured", message: "Card payments are not available on this site." },
      }),
    });
    renderPage(routes, { at: "/checkout/25" });
    expect(await screen.findByRole("heading", { name: "Card payments are not available here." })).toBeVisible();
    expect(screen.queryByLabelText("Card number")).toBeNull();
    expect(screen.queryByText("Sandbox — test cards only")).toBeNull();
    expect(server.calls("POST /api/create-payment-intent")).toHaveLength(0);
  });
});
