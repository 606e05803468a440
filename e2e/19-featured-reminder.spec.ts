// Journey 19: a featured event. An operator announces one a week ahead; a player presses "Remind
// me" on the home page; the schedule, run forward in time to a day before the start and to ten
// minutes before, sends the reminder: the notification card appears live and the mail is in the
// local outbox, once per reminder however often the cron runs.
import type { Page } from "@playwright/test";
import { createAccount, createTournament, expect, expectToast, signIn, test, uniqueName } from "./fixtures";

const DAY = 24 * 60 * 60_000;

/** Runs the Worker's cron handler as if it were `time` (wrangler dev's test-scheduled route). */
async function cronAt(page: Page, time: number) {
  const res = await page.request.get(`/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*&time=${time}`);
  expect(res.ok(), await res.text()).toBe(true);
}

test("a player sets Remind me on a featured event and gets the reminders in the app and by mail", async ({ page, context }) => {
  const title = `Gala ${uniqueName("f")}`;
  const t = await createTournament({ title, startsInMs: 8 * DAY, featured: true });
  const start = Date.parse(t.startTime);

  const player = await createAccount("reminded");
  await signIn(context, player);
  await page.goto("/");
  const featured = page.getByRole("region", { name: "Featured events" });
  const card = featured.getByRole("listitem").filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByText(/^Registration opens for you on /)).toBeVisible();
  await card.getByRole("button", { name: "Remind me" }).click();
  await expectToast(page, "Reminder set: we'll notify you 24 hours and 10 minutes before the start.");
  await expect(card.getByRole("button", { name: "Reminder on" })).toHaveAttribute("aria-pressed", "true");

  // A day before the start, twice: one reminder, shown live on the open page.
  await cronAt(page, start - DAY + 60_000);
  await cronAt(page, start - DAY + 2 * 60_000);
  const dayNotice = page.getByRole("status").filter({ hasText: `Reminder: ${title} starts in 24 hours.` });
  await expect(dayNotice).toBeVisible({ timeout: 20_000 });
  await expect(dayNotice.getByRole("link", { name: "View tournament" })).toHaveAttribute("href", `/tournaments/${t.id}`);

  // Ten minutes before.
  await cronAt(page, start - 8 * 60_000);
  await expect(page.getByRole("status").filter({ hasText: `Reminder: ${title} starts in 8 minutes.` })).toBeVisible({ timeout: 20_000 });

  // The mails, one of each, in the local outbox.
  await page.goto("/dev/outbox");
  const mails = page.getByRole("list", { name: "Mails" });
  await expect(mails.getByRole("listitem", { name: `Reminder: ${title} starts in 24 hours to ${player.email}`, exact: true })).toHaveCount(
    1,
  );
  const soonMail = mails.getByRole("listitem", { name: `Reminder: ${title} starts in 8 minutes to ${player.email}`, exact: true });
  await expect(soonMail).toHaveCount(1);
  // The mail's link leads back to the event on this site.
  await soonMail.getByRole("link", { name: new RegExp(`/tournaments/${t.id}$`) }).click();
  await expect(page).toHaveURL(new RegExp(`/tournaments/${t.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});
