// The audit log screen: entries with a before/after diff, filters sent to the API, older pages.
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AuditRow } from "@common/api/console";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import AuditPage from "./audit-page";

const entry = (o: Partial<AuditRow> = {}): AuditRow => ({
  id: 9,
  actor: { id: 2, username: "olga" },
  action: "user.suspend",
  targetType: "user",
  targetId: "12",
  before: { suspended: false, note: null },
  after: { suspended: true, note: "chargebacks" },
  note: "chargebacks",
  createdAt: "2026-11-23T10:00:00.000Z",
  ...o,
});

const admin = testUser({ role: "admin", twoFactorEnabled: true });
const routes = [{ path: "/admin/audit", element: <AuditPage /> }];

describe("the audit log screen", () => {
  it("shows who did what to which target, and what changed", async () => {
    fakeFetch({ "GET /api/admin/audit": () => ({ body: { entries: [entry()], nextCursor: null } }) });
    renderPage(routes, { at: "/admin/audit", user: admin });
    const diffs = await screen.findAllByRole("table", { name: "Changes" });
    const changed = within(diffs[0]!).getByRole("row", { name: /suspended/ });
    expect(changed).toHaveTextContent("false");
    expect(changed).toHaveTextContent("true");
    expect(screen.getAllByText("olga").length).toBeGreaterThan(0);
    expect(screen.getAllByText("user.suspend").length).toBeGreaterThan(0);
  });

  it("sends the filters and loads older entries", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/admin/audit": (req) =>
        req.query.get("cursor")
          ? { body: { entries: [entry({ id: 3, action: "user.ban" })], nextCursor: null } }
          : { body: { entries: [entry()], nextCursor: 9 } },
    });
    renderPage(routes, { at: "/admin/audit", user: admin });
    await screen.findAllByText("user.suspend");
    await u.selectOptions(screen.getByLabelText("Action"), "user.ban");
    await u.type(screen.getByLabelText("Operator"), "olga");
    await u.click(screen.getByRole("button", { name: "Apply" }));
    const last = () => server.calls("GET /api/admin/audit").at(-1)!.query;
    await screen.findAllByText("user.suspend");
    expect(last().get("action")).toBe("user.ban");
    expect(last().get("actor")).toBe("olga");
    await u.click(screen.getByRole("button", { name: "Older entries" }));
    expect((await screen.findAllByText("user.ban")).length).toBeGreaterThan(0);
    expect(last().get("cursor")).toBe("9");
  });
});
