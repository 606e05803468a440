import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminIdentityView } from "@common/api/identity";
import { IDENTITY_CONSOLE } from "@common/console-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { IdentityRecord } from "./identity-record";

const OPERATOR = testUser({ role: "admin", twoFactorEnabled: true });

const VIEW: AdminIdentityView = {
  state: "verified",
  reason: null,
  legalName: "Ada Lovelace",
  verifiedAt: "2026-11-26T10:00:00.000Z",
  verifyAgain: false,
  duplicateAccount: false,
  canStart: false,
  provider: "stripe",
  reference: "vs_1ABC",
  dateOfBirth: "1990-05-17",
  documentCountry: "GB",
  documentType: "passport",
  verifiedCount: 1,
  duplicateOf: null,
  linkedAccounts: [{ id: 9, username: "ada_two" }],
  nameMismatches: [{ holderName: "Charles Babbage", legalName: "Ada Lovelace", amount: 10, at: "2026-11-26T11:00:00.000Z" }],
};

describe("a player's identity in the console", () => {
  it("shows the state, the provider's reference, linked accounts and refused holder names; asks to verify again with a reason", async () => {
    const u = userEvent.setup();
    const fake = fakeFetch({
      "GET /api/admin/identity/users/5": () => ({ body: VIEW }),
      "POST /api/admin/identity/users/5/reverify": () => ({ body: { ...VIEW, verifyAgain: true, message: IDENTITY_CONSOLE.askedAgain } }),
    });
    renderPage([{ path: "/", element: <IdentityRecord id={5} username="speedy" /> }], { at: "/", user: OPERATOR });
    const section = await screen.findByRole("region", { name: IDENTITY_CONSOLE.title });
    expect(await within(section).findByTestId("admin-identity-state")).toHaveTextContent("Verified");
    expect(within(section).getByText("vs_1ABC")).toBeVisible();
    expect(within(section).getByRole("link", { name: "ada_two" })).toHaveAttribute("href", "/admin/players/9");
    expect(within(section).getByRole("list", { name: IDENTITY_CONSOLE.nameMismatches })).toHaveTextContent("“Charles Babbage”");
    expect(within(section).getByText(IDENTITY_CONSOLE.noImages)).toBeVisible();

    await u.click(within(section).getByRole("button", { name: IDENTITY_CONSOLE.askAgain }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText(IDENTITY_CONSOLE.askAgainNote), "old document");
    await u.click(within(dialog).getByRole("button", { name: IDENTITY_CONSOLE.askAgain }));
    await waitFor(() => expect(fake.calls("POST /api/admin/identity/users/5/reverify")).toHaveLength(1));
    expect(fake.calls("POST /api/admin/identity/users/5/reverify")[0]!.body).toEqual({ note: "old document" });
  });
});
