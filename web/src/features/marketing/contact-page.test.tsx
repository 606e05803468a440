import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import ContactPage from "./components/contact-page";

const config = (supportEmail: string | null) => ({
  paymentProvider: "sandbox",
  stripePublishableKey: null,
  minDeposit: 0.5,
  maxDeposit: 1000,
  supportEmail,
});

describe("contact page", () => {
  it("links the operator's support address", async () => {
    fakeFetch({ "GET /api/config": () => ({ body: config("help@arena.test") }) });
    renderPage([{ path: "/contact", element: <ContactPage /> }], { at: "/contact", user: null });
    expect(await screen.findByRole("link", { name: "help@arena.test" })).toHaveAttribute("href", "mailto:help@arena.test");
  });

  it("says so honestly when no address is configured", async () => {
    fakeFetch({ "GET /api/config": () => ({ body: config(null) }) });
    renderPage([{ path: "/contact", element: <ContactPage /> }], { at: "/contact", user: null });
    expect(await screen.findByText("This site's operator has not published a support address yet.")).toBeVisible();
    expect(screen.queryByRole("link", { name: /@/ })).toBeNull();
  });
});
