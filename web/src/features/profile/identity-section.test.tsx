import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { IdentityState } from "@common/api/identity";
import { IDENTITY } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { IdentitySection } from "./identity-section";
import IdentitySandboxPage from "./identity-sandbox-page";

const state = (extra: Partial<IdentityState> = {}): IdentityState => ({
  state: "not_started",
  reason: null,
  legalName: null,
  verifiedAt: null,
  verifyAgain: false,
  duplicateAccount: false,
  canStart: true,
  ...extra,
});

const render = () =>
  renderPage(
    [
      { path: "/", element: <IdentitySection /> },
      { path: "/identity/sandbox", element: <IdentitySandboxPage /> },
      { path: "/profile", element: <IdentitySection /> },
    ],
    { at: "/" },
  );

const config = { "GET /api/config": () => ({ body: { paymentProvider: "sandbox", stripePublishableKey: null } }) };

describe("the profile's Identity section", () => {
  it.each([
    ["not started", state(), "Not started", IDENTITY.start],
    ["pending", state({ state: "pending" }), "Pending", IDENTITY.tryAgain],
  ])("%s: the state and the button to verify", async (_, s, label, button) => {
    fakeFetch({ ...config, "GET /api/identity": () => ({ body: s }) });
    render();
    expect(await screen.findByTestId("identity-state")).toHaveTextContent(label);
    expect(screen.getByRole("button", { name: button })).toBeEnabled();
  });

  it("verified: the legal name, no button", async () => {
    fakeFetch({
      ...config,
      "GET /api/identity": () => ({
        body: state({ state: "verified", legalName: "Ada Lovelace", verifiedAt: "2026-11-26T10:00:00.000Z", canStart: false }),
      }),
    });
    render();
    expect(await screen.findByTestId("identity-state")).toHaveTextContent("Verified");
    expect(screen.getByText(/^Verified as Ada Lovelace/)).toBeVisible();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("needs another try: the provider's reason and Try again", async () => {
    fakeFetch({
      ...config,
      "GET /api/identity": () => ({ body: state({ state: "requires_input", reason: "The document has expired." }) }),
    });
    render();
    expect(await screen.findByTestId("identity-state")).toHaveTextContent("Needs another try");
    expect(screen.getByRole("alert")).toHaveTextContent(IDENTITY.requiresInput("The document has expired."));
    expect(screen.getByRole("button", { name: IDENTITY.tryAgain })).toBeEnabled();
  });

  it("refused: the reason, no button", async () => {
    fakeFetch({
      ...config,
      "GET /api/identity": () => ({ body: state({ state: "refused", reason: "Altered document.", canStart: false }) }),
    });
    render();
    expect(await screen.findByTestId("identity-state")).toHaveTextContent("Refused");
    expect(screen.getByRole("alert")).toHaveTextContent(IDENTITY.refused("Altered document."));
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("a linked second account says so", async () => {
    fakeFetch({
      ...config,
      "GET /api/identity": () => ({
        body: state({ state: "verified", legalName: "Ada Lovelace", duplicateAccount: true, canStart: false }),
      }),
    });
    render();
    expect(await screen.findByText(IDENTITY.duplicateNote)).toBeVisible();
  });

  it("with the sandbox, opens the local page, which submits the identity typed there", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      ...config,
      "GET /api/identity": () => ({ body: state() }),
      "POST /api/identity/session": () => ({
        body: { provider: "sandbox", sessionId: "vs_sbx_1", clientSecret: null, url: "/identity/sandbox?session=vs_sbx_1" },
      }),
      "POST /api/identity/sandbox/complete": () => ({ body: state({ state: "verified", legalName: "Ada Lovelace", canStart: false }) }),
    });
    render();
    await u.click(await screen.findByRole("button", { name: IDENTITY.start }));
    await u.type(await screen.findByLabelText("Legal first name (and middle names)"), "Ada");
    await u.type(screen.getByLabelText("Legal last name"), "Lovelace");
    await u.type(screen.getByLabelText("Date of birth (YYYY-MM-DD)"), "1990-05-17");
    await u.type(screen.getByLabelText("Document number"), "P1234567");
    await u.click(screen.getByRole("button", { name: "Submit" }));
    await screen.findByTestId("identity-state");
    expect(server.calls("POST /api/identity/sandbox/complete")[0]!.body).toEqual({
      outcome: "verified",
      sessionId: "vs_sbx_1",
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1990-05-17",
      documentNumber: "P1234567",
      documentCountry: "US",
    });
  });
});
