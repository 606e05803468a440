// The profile's data controls: "Download my data" saves the server's file under its name, and
// the Danger Zone says what a deletion erases and keeps (docs/player-data.md).
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ACCOUNT_DELETION, LEGAL } from "@common/legal-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { DataExport } from "./data-export";
import { DeleteAccount } from "./delete-account";

afterEach(() => vi.unstubAllGlobals());

describe("Download my data", () => {
  it("saves the export as a JSON file under the name the server gives", async () => {
    const u = userEvent.setup();
    const file = JSON.stringify({ profile: { username: "quiz_master" } });
    fakeFetch({
      "GET /api/user/data-export": () => ({
        text: file,
        headers: { "Content-Type": "application/json", "Content-Disposition": 'attachment; filename="trivia-arena-data-2026-11-26.json"' },
      }),
    });
    const blobs: Blob[] = [];
    // A stand-in URL with object URLs (happy-dom has none); the real one is back after the test (unstubAllGlobals).
    class FakeUrl extends URL {
      static override createObjectURL = (b: Blob) => (blobs.push(b), "blob:export");
      static override revokeObjectURL = () => {};
    }
    vi.stubGlobal("URL", FakeUrl);
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderPage([{ path: "/profile", element: <DataExport /> }], { at: "/profile" });
    await u.click(screen.getByRole("button", { name: LEGAL.exportButton }));
    await vi.waitFor(() => expect(clicked).toEqual([{ href: "blob:export", download: "trivia-arena-data-2026-11-26.json" }]));
    expect(await blobs[0]!.text()).toBe(file);
    click.mockRestore();
  });

  it("shows the server's refusal", async () => {
    const u = userEvent.setup();
    fakeFetch({ "GET /api/user/data-export": () => ({ status: 429, body: { code: "rate_limited", message: LEGAL.exportLimited } }) });
    renderPage([{ path: "/profile", element: <DataExport /> }], { at: "/profile" });
    await u.click(screen.getByRole("button", { name: LEGAL.exportButton }));
    expect(await screen.findByRole("alert")).toHaveTextContent(LEGAL.exportLimited);
  });
});

describe("the Danger Zone", () => {
  it("says what a deletion erases and what it keeps, and why", () => {
    fakeFetch({});
    renderPage([{ path: "/profile", element: <DeleteAccount /> }], { at: "/profile" });
    for (const line of [...ACCOUNT_DELETION.erases, ...ACCOUNT_DELETION.keeps]) expect(screen.getByText(line)).toBeVisible();
    expect(screen.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  });
});
