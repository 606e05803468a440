import { describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import LearnMorePage from "./components/learn-more-page";

describe("learn more", () => {
  it("opens one tournament-information section at a time", async () => {
    fakeFetch({
      "GET /api/categories": () => ({
        body: [{ id: 1, slug: "music", name: "Music", description: "", icon: "music", activeTournaments: 2 }],
      }),
    });
    renderPage([{ path: "/learn-more", element: <LearnMorePage /> }], { at: "/learn-more" });
    const names = ["Schedule", "Question Format", "Minimum Player Requirement", "Prize Distribution", "Categories"];
    for (const name of names) expect(screen.getByRole("button", { name })).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(screen.getByRole("button", { name: "Schedule" }));
    expect(screen.getByRole("button", { name: "Schedule" })).toHaveAttribute("aria-expanded", "true");
    fireEvent.click(screen.getByRole("button", { name: "Minimum Player Requirement" }));
    expect(screen.getByRole("button", { name: "Minimum Player Requirement" })).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("button", { name: "Schedule" })).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByText(/needs 10 players to start/)).toBeVisible();

    // Collapsible: the open one closes again.
    fireEvent.click(screen.getByRole("button", { name: "Minimum Player Requirement" }));
    expect(screen.getByRole("button", { name: "Minimum Player Requirement" })).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(screen.getByRole("button", { name: "Categories" }));
    expect(await screen.findByRole("link", { name: "Music" })).toHaveAttribute("href", "/tournaments?category=music");
  });

  it("names level tiers with their levels and fee tiers with fee and minimum level, as the filter and detail pages do", () => {
    fakeFetch({ "GET /api/categories": () => ({ body: [] }) });
    renderPage([{ path: "/learn-more", element: <LearnMorePage /> }], { at: "/learn-more" });
    for (const tier of ["Beginner (levels 1-2)", "Intermediate (levels 3-5)", "Advanced (levels 6-9)", "Elite (levels 10+)"]) {
      expect(screen.getByText(tier)).toBeVisible();
    }
    // The $10 fee tier is called Advanced, but it opens at level 3 (Intermediate): said so, never "advanced tournaments" bare.
    expect(screen.getByText(/Unlocks Advanced tournaments: \$10\.00 entry, Level 3\+ \(Intermediate\)/)).toBeVisible();
    expect(screen.getByText(/Unlocks Elite tournaments: \$50\.00 entry, Level 10\+ \(Elite\)/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/Unlocks (standard|advanced|premium|elite) tournaments \(/);
  });

  it("says in Question Format that paid tournaments are live shows with a reveal, not a next question 2 s after answering", () => {
    fakeFetch({ "GET /api/categories": () => ({ body: [] }) });
    renderPage([{ path: "/learn-more", element: <LearnMorePage /> }], { at: "/learn-more" });
    fireEvent.click(screen.getByRole("button", { name: "Question Format" }));
    expect(screen.getByText(/Paid tournaments are live shows: every player gets each question at the same moment/)).toBeVisible();
    expect(
      screen.getByText(/the correct answer is revealed to everyone when the time is up; the next question follows 5 seconds after/),
    ).toBeVisible();
  });

  it("links its hero to How It Works and the tournaments", () => {
    fakeFetch({ "GET /api/categories": () => ({ body: [] }) });
    renderPage([{ path: "/learn-more", element: <LearnMorePage /> }], { at: "/learn-more" });
    expect(screen.getAllByRole("link", { name: "How It Works" })[0]).toHaveAttribute("href", "/how-it-works");
    expect(screen.getAllByRole("link", { name: "Browse Tournaments" })[0]).toHaveAttribute("href", "/tournaments");
  });
});
