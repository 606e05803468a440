// Journey 16: texts that must be true, in Chromium at 1280 px. A new player with a long email
// address sees the "Verify your email" notice inside the wallet card (its button within the card
// and the screen); the footer's Payment Status link without a payment is a neutral page; the
// home page's hero shows the real figures of GET /api/stats; a visitor sent to sign in from a
// protected page lands back on it, and a foreign return path is ignored.
import { request as playwrightRequest } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { heroFigures, type HeroFigureValues } from "../common/domain/hero-figures";
import { PASSWORD, expect, signIn, test, uniqueName, type Account } from "./fixtures";

/** A player whose address is as long as addresses get in practice (no spaces to wrap at). */
async function playerWithLongEmail(): Promise<Account> {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { Origin: E2E_BASE_URL } });
  const username = uniqueName("longmail");
  const email = `${username.toLowerCase()}.with.a.rather.long.address@subdomain.example-company.com`;
  const res = await api.post("/api/register", { data: { username, email, password: PASSWORD, acceptTerms: true } });
  expect(res.ok()).toBe(true);
  const user = (await res.json()) as { id: number };
  return { id: user.id, username, email, password: PASSWORD, api };
}

test("the verify-email notice stays inside the wallet card at 1280 px; Payment Status without a payment is neutral", async ({
  page,
  context,
}) => {
  const player = await playerWithLongEmail();
  await signIn(context, player);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/dashboard");

  const banner = page.getByRole("region", { name: "Verify your email address" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(player.email);
  const card = page.getByTestId("wallet-card");
  const button = banner.getByRole("button", { name: "Send a new link" });
  const [cardBox, bannerBox, buttonBox] = await Promise.all([card.boundingBox(), banner.boundingBox(), button.boundingBox()]);
  expect(cardBox && bannerBox && buttonBox).toBeTruthy();
  const within = (inner: NonNullable<typeof cardBox>, outer: NonNullable<typeof cardBox>) =>
    inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;
  expect(within(bannerBox!, cardBox!), `banner ${JSON.stringify(bannerBox)} in card ${JSON.stringify(cardBox)}`).toBe(true);
  expect(within(buttonBox!, bannerBox!), `button ${JSON.stringify(buttonBox)} in banner ${JSON.stringify(bannerBox)}`).toBe(true);
  expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(1280);
  // Nothing on the page is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

  // The footer's Payment Status link, with no payment to show.
  await page.getByRole("contentinfo").getByRole("link", { name: "Payment Status" }).click();
  await expect(page.getByRole("heading", { name: "Payment Status" })).toBeVisible();
  await expect(page.getByText(/There is no payment to show here/)).toBeVisible();
  await expect(page.getByText("Payment Issue Detected")).toHaveCount(0);
});

test("the home page's hero shows the real prizes paid and tournaments completed", async ({ page }) => {
  await page.goto("/");
  const real = (await (await page.request.get("/api/stats")).json()) as HeroFigureValues;
  const shown = heroFigures(real);
  const figure = (label: string) => page.getByRole("term").filter({ hasText: label }).locator("xpath=following-sibling::dd");
  await expect(figure("Paid to winners")).toHaveText(shown.paidToWinners);
  await expect(figure("Tournaments completed")).toHaveText(shown.tournamentsCompleted);
});

test("signing in from a protected page lands back on it; a foreign return path is ignored", async ({ page }) => {
  const player = await playerWithLongEmail();
  await page.goto("/dashboard?tab=transactions");
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByLabel("Username").fill(player.username);
  await page.getByLabel("Password").fill(player.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=transactions$/);
  await expect(page.getByRole("tab", { name: "Transaction History" })).toHaveAttribute("aria-selected", "true");

  // Signed in, a crafted link to the sign-in page goes home, never off-site.
  await page.goto("/auth?next=%2F%2Fevil.example");
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
});
