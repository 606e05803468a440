// The terms dialog: a money request refused with terms_not_accepted shows the new versions to
// read, "I agree" sends exactly the versions shown, and the request is then sent once more.
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { LEGAL } from "@common/legal-messages";
import { fakeFetch, type FakeRoute } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { api, read } from "@/lib/api-client";
import { errorMessage } from "@/lib/api";

const refusal = { status: 403, body: { code: "terms_not_accepted", message: LEGAL.notAccepted("Terms of Service") } };
const current = [
  { id: "terms", title: "Terms of Service", path: "/terms", version: "2.0", effectiveDate: "2026-12-01" },
  { id: "rules", title: "Official Contest Rules", path: "/rules", version: "1.0", effectiveDate: "2026-11-26" },
  { id: "privacy", title: "Privacy Policy", path: "/privacy", version: "1.0", effectiveDate: "2026-11-26" },
];
const termsText = {
  id: "terms",
  title: "Terms of Service",
  version: "2.0",
  effectiveDate: "2026-12-01",
  text: "# Terms of Service\n\n## Money\n\n- Deposits are **final** once credited.\n\n<img src=x onerror=alert(1)>",
};

/** A page with one money action, as the checkout's deposit button. */
function DepositButton() {
  const [result, setResult] = useState("");
  const deposit = () =>
    read(api["create-payment-intent"].$post({ json: { amount: 10 } })).then(
      () => setResult("deposit started"),
      (e: unknown) => setResult(`refused: ${errorMessage(e)}`),
    );
  return (
    <>
      <button onClick={() => void deposit()}>Deposit</button>
      <p>{result}</p>
    </>
  );
}

function setUp(accept: FakeRoute = () => ({ body: { current, outstanding: [] } })) {
  let deposits = 0;
  const fake = fakeFetch({
    "POST /api/create-payment-intent": () => (++deposits === 1 ? refusal : { body: { clientSecret: "cs", paymentIntentId: "pi_1" } }),
    "GET /api/user/terms": () => ({ body: { current, outstanding: ["terms"] } }),
    "GET /api/legal/terms": () => ({ body: termsText }),
    "POST /api/user/terms/accept": accept,
  });
  renderPage([{ path: "/checkout", element: <DepositButton /> }], { at: "/checkout" });
  return fake;
}

afterEach(() => vi.unstubAllGlobals());

describe("the terms dialog", () => {
  it("shows the new version to read, accepts the versions shown and sends the refused request again", async () => {
    const u = userEvent.setup();
    const fake = setUp();
    await u.click(screen.getByRole("button", { name: "Deposit" }));
    const dialog = await screen.findByRole("dialog", { name: LEGAL.dialogTitle });
    expect(await screen.findByText(LEGAL.version("2.0", "2026-12-01"))).toBeVisible();
    expect(screen.getByText("final")).toBeVisible();
    expect(screen.getByText("final").tagName).toBe("STRONG");
    // Markup in a text stays text.
    expect(screen.getByText("<img src=x onerror=alert(1)>")).toBeVisible();
    expect(dialog.querySelector("img")).toBeNull();
    expect(screen.getByRole("link", { name: "Open the Terms of Service in a new tab" })).toHaveAttribute("href", "/terms");

    await u.click(screen.getByRole("button", { name: LEGAL.acceptButton }));
    expect(await screen.findByText("deposit started")).toBeVisible();
    expect(fake.calls("POST /api/user/terms/accept").map((r) => r.body)).toEqual([
      { versions: { terms: "2.0", rules: "1.0", privacy: "1.0" } },
    ]);
    expect(fake.calls("POST /api/create-payment-intent")).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("keeps the refusal when the player closes it, and sends nothing more", async () => {
    const u = userEvent.setup();
    const fake = setUp();
    await u.click(screen.getByRole("button", { name: "Deposit" }));
    await screen.findByText(LEGAL.version("2.0", "2026-12-01"));
    await u.click(screen.getByRole("button", { name: LEGAL.notNow }));
    expect(await screen.findByText(`refused: ${LEGAL.notAccepted("Terms of Service")}`)).toBeVisible();
    expect(fake.calls("POST /api/user/terms/accept")).toHaveLength(0);
    expect(fake.calls("POST /api/create-payment-intent")).toHaveLength(1);
  });

  it("says so when the versions shown are no longer in force, and loads the current ones", async () => {
    const u = userEvent.setup();
    const fake = setUp(() => ({ status: 409, body: { code: "terms_version_stale", message: LEGAL.stale } }));
    await u.click(screen.getByRole("button", { name: "Deposit" }));
    await screen.findByText(LEGAL.version("2.0", "2026-12-01"));
    await u.click(screen.getByRole("button", { name: LEGAL.acceptButton }));
    expect(await screen.findByText(LEGAL.stale)).toBeVisible();
    await waitFor(() => expect(fake.calls("GET /api/user/terms").length).toBeGreaterThanOrEqual(2));
    expect(fake.calls("POST /api/create-payment-intent")).toHaveLength(1);
  });
});
