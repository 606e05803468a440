// What the live-show journeys (09, 24, 25) read off the page: the seeded question bank to answer
// right or wrong on purpose, and when (on the page's own clock) an element first appeared.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";

/** Question text to its options and right answer, from the question bank the e2e database is seeded with. */
export const SEEDED_QUESTIONS = new Map<string, { options: string[]; correctAnswer: string }>();
const bankDir = fileURLToPath(new URL("../worker/seed/questions/", import.meta.url));
for (const file of readdirSync(bankDir)) {
  for (const q of JSON.parse(readFileSync(`${bankDir}${file}`, "utf8")) as {
    question: string;
    options: string[];
    correctAnswer: string;
  }[]) {
    SEEDED_QUESTIONS.set(q.question, q);
  }
}

/** Records (in the page, on its own clock) when an element with the test id next appears, with this text unless null. */
export async function watchFor(page: Page, testId: string, notText: string | null = null) {
  await page.evaluate(
    ([id, old]) => {
      const w = window as unknown as Record<string, number>;
      delete w[`seen:${id}`];
      const seen = () => {
        const el = document.querySelector(`[data-testid="${id}"]`);
        return el !== null && (old === null || el.textContent?.trim() !== old);
      };
      if (seen()) w[`seen:${id}`] = Date.now();
      else
        new MutationObserver((_, observer) => {
          if (!seen()) return;
          w[`seen:${id}`] = Date.now();
          observer.disconnect();
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
    },
    [testId, notText] as const,
  );
}
export const seenAt = (page: Page, testId: string) =>
  page.evaluate((id) => (window as unknown as Record<string, number>)[`seen:${id}`]!, testId);
