import { afterEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { LEGAL } from "@common/legal-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import LegalPage from "./legal-page";

const routes = ["/terms", "/rules", "/privacy"].map((path) => ({ path, element: <LegalPage /> }));

afterEach(() => vi.unstubAllGlobals());

describe("the legal pages", () => {
  it("show the document of their path with its version, as headings, lists and paragraphs", async () => {
    const api = fakeFetch({
      "GET /api/legal/rules": () => ({
        body: {
          id: "rules",
          title: "Official Contest Rules",
          version: "1.0",
          effectiveDate: "2026-11-26",
          text: "# Official Contest Rules\n\n## Eligibility\n\n- Void where prohibited: US-WA, US-ID.\n\n1. more points;\n2. then time.\n\n<script>alert(1)</script>",
        },
      }),
    });
    renderPage(routes, { at: "/rules", user: null });
    expect(await screen.findByRole("heading", { level: 1, name: "Official Contest Rules" })).toBeVisible();
    expect(screen.getByText(LEGAL.version("1.0", "2026-11-26"))).toBeVisible();
    expect(screen.getByRole("heading", { level: 2, name: "Eligibility" })).toBeVisible();
    expect(screen.getByText("Void where prohibited: US-WA, US-ID.").closest("ul")).not.toBeNull();
    expect(screen.getByText("more points;").closest("ol")).not.toBeNull();
    expect(screen.getByText("<script>alert(1)</script>")).toBeVisible();
    expect(document.querySelector("article script")).toBeNull();
    expect(api.calls("GET /api/legal/rules")).toHaveLength(1);
  });

  it("say so when the document cannot be loaded", async () => {
    fakeFetch({ "GET /api/legal/privacy": () => ({ status: 500, body: { code: "internal", message: "Internal server error" } }) });
    renderPage(routes, { at: "/privacy", user: null });
    expect(await screen.findByRole("alert")).toHaveTextContent("Privacy Policy");
  });
});
