// Journey 1: a visitor. The home page shows the real live tournaments and categories, the
// header's links work, a signed-in page sends the visitor to /auth, and an unknown address
// shows the 404 screen.
import type { TournamentPage } from "../common/api/tournaments";
import type { Category } from "../common/api/types";
import { expect, headerLink, isMobile, test } from "./fixtures";

const CATEGORY_NAMES = ["General Knowledge", "Technology", "Science", "History", "Movies & TV", "Sports", "Music", "Geography"];

test("visitor: home with real tournaments and categories, nav links, protected route, 404 @mobile", async ({ page, request }, testInfo) => {
  const home = await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The page is served with its security headers; the theme script still runs under the policy
  // (a blocked script would be a console error, which fails the journey).
  const headers = home!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
  expect(headers["x-content-type-options"]).toBe("nosniff");

  // Live Tournaments: the next three real tournaments (live first, then the soonest to start),
  // never the always-open practice ones.
  const next = (await (await request.get("/api/tournaments?kind=standard&status=active&pageSize=3")).json()) as TournamentPage;
  expect(next.items).toHaveLength(3);
  expect(next.items.map((t) => t.title).join()).not.toContain("Practice");
  const liveSection = page.getByRole("region", { name: "Live Tournaments" });
  const cardTitles = liveSection.getByRole("heading", { level: 3 });
  await expect(cardTitles).toHaveCount(3);
  await expect(cardTitles).toHaveText(next.items.map((t) => t.title));

  // How It Works: its four steps.
  const steps = page.getByRole("region", { name: "How It Works" });
  for (const step of ["Create Account", "Join Tournament", "Compete", "Win & Withdraw"]) {
    await expect(steps.getByRole("heading", { name: step, exact: true })).toBeVisible();
  }

  // Categories: the eight of the catalogue, each with its count of upcoming and live tournaments.
  const categories = (await (await request.get("/api/categories")).json()) as Category[];
  expect(categories.map((c) => c.name)).toEqual(CATEGORY_NAMES);
  const categorySection = page.getByRole("region", { name: "Categories" });
  for (const c of categories) {
    const link = categorySection.getByRole("link", { name: new RegExp(`^${c.name}`) });
    await expect(link).toBeVisible();
    await expect(link).toContainText(`${c.activeTournaments} active ${c.activeTournaments === 1 ? "tournament" : "tournaments"}`);
    expect(c.activeTournaments).toBeGreaterThan(0);
  }

  // Signed out: Sign In and Sign Up (behind the menu at phone width, as Login and Sign Up).
  if (isMobile(testInfo)) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Login", exact: true })).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign Up", exact: true })).toHaveAttribute(
      "href",
      "/auth?tab=register",
    );
    await page.getByRole("button", { name: "Close menu" }).click();
  } else {
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In", exact: true })).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign Up", exact: true })).toHaveAttribute(
      "href",
      "/auth?tab=register",
    );
  }

  // Nav links: each goes to its screen and is the active one there.
  await (await headerLink(page, "How It Works")).click();
  await expect(page).toHaveURL(/\/how-it-works$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  if (!isMobile(testInfo)) await expect(await headerLink(page, "How It Works")).toHaveAttribute("aria-current", "page");

  await (await headerLink(page, "Leaderboards")).click();
  await expect(page).toHaveURL(/\/leaderboards$/);
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboards" })).toBeVisible();

  await (await headerLink(page, "Home")).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("region", { name: "Live Tournaments" })).toBeVisible();

  // Tournaments is behind sign-in: the visitor lands on /auth, which comes back there after signing in.
  await (await headerLink(page, "Tournaments")).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Ftournaments$/);
  await expect(page.getByRole("heading", { name: "Welcome to Trivia Arena" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");

  await page.goto("/dashboard?tab=transactions");
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%3Ftab%3Dtransactions$/);

  // The catch-all screen.
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
});
