import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import type { IdentityState } from "@common/api/identity";
import { IDENTITY } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { IdentityBanner } from "./identity-banner";

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

const render = (s: IdentityState) => {
  fakeFetch({ "GET /api/identity": () => ({ body: s }) });
  renderPage([{ path: "/", element: <IdentityBanner /> }], { at: "/" });
};

describe("the withdrawal page's identity notice", () => {
  it("before verification: what is missing and a link to the check", async () => {
    render(state());
    const notice = await screen.findByRole("region", { name: "Identity" });
    expect(notice).toHaveTextContent("Identity: Not started");
    expect(notice).toHaveTextContent(IDENTITY.verificationRequired);
    expect(screen.getByRole("link", { name: IDENTITY.start })).toHaveAttribute("href", "/profile?tab=identity");
  });

  it("needs another try: the provider's reason", async () => {
    render(state({ state: "requires_input", reason: "The document has expired." }));
    expect(await screen.findByRole("region", { name: "Identity" })).toHaveTextContent(IDENTITY.requiresInput("The document has expired."));
  });

  it("a linked second account: no link, the one-person rule", async () => {
    render(state({ state: "verified", legalName: "Ada Lovelace", duplicateAccount: true, canStart: false }));
    expect(await screen.findByRole("region", { name: "Identity" })).toHaveTextContent(IDENTITY.duplicateAccount);
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("verified: the name the account must be held in", async () => {
    render(state({ state: "verified", legalName: "Ada Lovelace", canStart: false }));
    expect(await screen.findByTestId("identity-verified-name")).toHaveTextContent("Verified as Ada Lovelace");
  });
});
