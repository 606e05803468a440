// The Tax screen as an operator uses it: a year's summary, reconciled, and the CSV downloaded
// after the step-up the server asks for.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Tax1099Summary } from "@common/api/tax";
import { AUTH } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import TaxPage from "./tax-page";

const admin = testUser({ role: "admin", twoFactorEnabled: true });
const routes = [{ path: "/admin/tax", element: <TaxPage /> }];
const LAST_YEAR = new Date().getUTCFullYear() - 1;

const summary = (year: number, o: Partial<Tax1099Summary> = {}): Tax1099Summary => ({
  year,
  threshold: 2000,
  totalPrizes: 18_583.83,
  reportedTotal: 7583.84,
  payees: 3,
  payeesWithoutForm: 1,
  withoutForm: [{ userId: 42, username: "bytebard", prizes: 2000 }],
  belowThreshold: 1999.99,
  notUs: 9000,
  ...o,
});

let saved: Blob[] = [];
let names: string[] = [];
beforeEach(() => {
  saved = [];
  names = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    saved.push(blob as Blob);
    return "blob:csv";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

describe("the Tax screen", () => {
  it("shows last year's summary by default and another year's when picked", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/tax/1099-misc/summary": (req) => ({ body: summary(Number(req.query.get("year"))) }),
    });
    renderPage(routes, { at: "/admin/tax", user: admin });
    const section = await screen.findByRole("region", { name: `1099-MISC ${LAST_YEAR}` });
    expect(await within(section).findByText("$18583.83")).toBeVisible();
    expect(within(section).getByText("$7583.84")).toBeVisible();
    expect(within(section).getByRole("row", { name: /without a W-9/ })).toHaveTextContent("1");
    expect(within(section).getByRole("link", { name: "bytebard" })).toHaveAttribute("href", "/admin/players/42");
    await u.selectOptions(screen.getByLabelText("Tax year"), String(LAST_YEAR - 1));
    expect(await screen.findByRole("region", { name: `1099-MISC ${LAST_YEAR - 1}` })).toBeVisible();
    expect(server.calls("GET /api/admin/tax/1099-misc/summary").map((r) => r.query.get("year"))).toContain(String(LAST_YEAR - 1));
  });

  it("downloads the CSV after the step-up the server asks for", async () => {
    const u = userEvent.setup();
    let steppedUp = false;
    const csv = "record_type,payment_year\r\nA,2025\r\n";
    const server = fakeFetch({
      "GET /api/admin/tax/1099-misc/summary": (req) => ({ body: summary(Number(req.query.get("year"))) }),
      "GET /api/admin/tax/1099-misc": (req) =>
        steppedUp
          ? {
              text: csv,
              headers: {
                "content-type": "text/csv",
                "content-disposition": `attachment; filename="1099-misc-${req.query.get("year")}.csv"`,
              },
            }
          : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": () => {
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
    });
    renderPage(routes, { at: "/admin/tax", user: admin });
    await screen.findByRole("region", { name: `1099-MISC ${LAST_YEAR}` });
    await u.click(screen.getByRole("button", { name: "Download CSV" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await u.type(within(dialog).getByLabelText("Password"), "my-password");
    await u.type(within(dialog).getByLabelText("Authentication code"), "123456");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(names).toEqual([`1099-misc-${LAST_YEAR}.csv`]));
    expect(await saved[0]!.text()).toBe(csv);
    expect(server.calls("GET /api/admin/tax/1099-misc")).toHaveLength(2);
  });

  it("says which payer setting is missing", async () => {
    const u = userEvent.setup();
    const message = "The 1099-MISC export cannot be made: TAX_PAYER_TIN must be your EIN. Set it in wrangler.toml [vars].";
    fakeFetch({
      "GET /api/admin/tax/1099-misc/summary": (req) => ({ body: summary(Number(req.query.get("year"))) }),
      "GET /api/admin/tax/1099-misc": () => ({ status: 503, body: { code: "tax_payer_not_configured", message } }),
    });
    renderPage(routes, { at: "/admin/tax", user: admin });
    await screen.findByRole("region", { name: `1099-MISC ${LAST_YEAR}` });
    await u.click(screen.getByRole("button", { name: "Download CSV" }));
    expect(await screen.findByText(message)).toBeVisible();
    expect(names).toEqual([]);
  });
});
