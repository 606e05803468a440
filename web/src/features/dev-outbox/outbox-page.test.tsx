import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import type { OutboxMail } from "@common/api/email";
import { EMAIL } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import OutboxPage from "./outbox-page";

const routes = [{ path: "/dev/outbox", element: <OutboxPage /> }];
afterEach(() => vi.unstubAllGlobals());

const mails: OutboxMail[] = [
  {
    id: 2,
    to: "ada@example.com",
    subject: "Reset your Trivia Arena password",
    text: "Hi ada,\n\nOpen this link:\n\nhttp://localhost:8787/reset-password?token=abc_DEF-123\n\nIf you did not ask, ignore this mail.",
    kind: "reset_password",
    createdAt: "2026-03-01T12:05:00.000Z",
  },
  {
    id: 1,
    to: "ada@example.com",
    subject: "Verify your email address for Trivia Arena",
    text: "Hi ada,\n\nhttp://localhost:8787/verify-email?token=xyz",
    kind: "verify_email",
    createdAt: "2026-03-01T12:00:00.000Z",
  },
];

describe("local outbox page", () => {
  it("lists the mails in the server's order (newest first) with their links clickable", async () => {
    fakeFetch({ "GET /api/dev/outbox": () => ({ body: mails }) });
    renderPage(routes, { at: "/dev/outbox", user: null });
    const items = within(await screen.findByRole("list", { name: "Mails" })).getAllByRole("listitem");
    expect(items.map((i) => i.getAttribute("aria-label"))).toEqual([
      "Reset your Trivia Arena password to ada@example.com",
      "Verify your email address for Trivia Arena to ada@example.com",
    ]);
    const link = within(items[0]!).getByRole("link", { name: "http://localhost:8787/reset-password?token=abc_DEF-123" });
    expect(link).toHaveAttribute("href", "http://localhost:8787/reset-password?token=abc_DEF-123");
    expect(items[0]).toHaveTextContent("If you did not ask, ignore this mail.");
  });

  it("says the outbox is off where the server does not keep one", async () => {
    fakeFetch({ "GET /api/dev/outbox": () => ({ status: 404, body: { code: "not_found", message: "Not found" } }) });
    renderPage(routes, { at: "/dev/outbox", user: null });
    expect(await screen.findByRole("alert")).toHaveTextContent(EMAIL.outboxOff);
  });

  it("says when there is no mail yet", async () => {
    fakeFetch({ "GET /api/dev/outbox": () => ({ body: [] }) });
    renderPage(routes, { at: "/dev/outbox", user: null });
    expect(await screen.findByText(EMAIL.outboxEmpty)).toBeVisible();
  });
});
