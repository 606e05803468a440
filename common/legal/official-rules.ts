// The Official Contest Rules as players read them at /rules. Changing the text means a new version
// (and its effective date): every player is asked to accept it before their next deposit, paid
// entry or withdrawal (docs/player-data.md). documents.test.ts pins the text to the version.
// {{NAME}} placeholders are filled when the page is served from the deployment's settings and
// the product's constants (common/domain/legal.ts), so figures never drift from what the code does.
export const OFFICIAL_RULES = {
  version: "1.0",
  effectiveDate: "2026-11-26",
  body: `# Official Contest Rules

These rules apply to every tournament on Trivia Arena with an entry fee or a prize. They are part of the Terms of Service. No purchase is necessary to play free tournaments.

## Eligibility

- You must be at least 18 years old. Where your region sets a higher age, that age applies: {{REGION_MIN_AGES}}.
- Void where prohibited. Deposits, paid entries, free tournaments with a prize and withdrawals are refused from these regions: {{BARRED_REGIONS}}. The region is where your connection comes from, as our network provider reports it.
- Staff are excluded. Operators of the site cannot enter prize tournaments, nor can accounts on a device an operator used in the last 90 days or a network an operator used in the last 30 days.
- One account per person.

## How a tournament is played

- Each tournament has {{QUESTIONS_PER_TOURNAMENT}} multiple-choice questions with four options, from easy to hard.
- Each question is open for {{QUESTION_SECONDS}} seconds, timed by our server from the moment it is sent to you, with a short allowance for the network. A later answer scores nothing.
- One answer per question. An answer to a question not yet sent, or a second answer, is refused and recorded.
- In a live show every player gets each question at the same moment; in a self-paced tournament each player draws their questions from a secret pool, so players do not all see the same questions.

## Scoring

- A correct answer in time scores {{CORRECT_POINTS}} points plus a speed bonus of 1000 divided by the seconds you took, rounded, at most {{MAX_SPEED_BONUS}} points (1 second gives 1000, 2 seconds 500, 5 seconds 200). A wrong or late answer scores 0.

## Ranking and tie-breaks

Players are ranked by:

1. more points;
2. then the lower total response time, where a question left unanswered counts the full {{QUESTION_SECONDS}} seconds, so skipping never beats answering;
3. then the earlier finish;
4. then the account created first.

## Prizes

- The prize pool of a paid tournament is {{POOL_PERCENT}}% of the entry fees collected, rounded down to the cent; the house keeps {{HOUSE_PERCENT}}% as its fee.
- The pool is paid to places 1 to 3 in shares of {{PRIZE_SHARES}}. Rounding remainders go to first place, so the whole pool is paid to the cent.
- Prizes go to the top three among players who answered at least one question. A place nobody qualifies for stays with the house and is recorded in its ledger.
- A paid tournament with fewer than {{MIN_PLAYERS_PAID}} players 30 minutes after its start is cancelled and every entry fee is refunded.
- A free tournament may carry a prize pool that the house funds and announces; it is shared the same way.
- Prizes are credited to your balance when the tournament is settled, and are withdrawable under the Terms of Service. You are responsible for any tax on your winnings; US players may be asked for tax details before a withdrawal.

## Fair play

- The house never plays. No account controlled by us competes for a prize, and every prize comes from the players' entry fees or an announced house pool.
- Staff and accounts linked to staff are excluded from prize play (see Eligibility).
- Question fairness: a question decides at most one prize, and never after its correct answer has been shown to any player. Prize tournaments use only fresh questions; once a prize tournament ends, its questions are retired from prize play. Before each tournament we publish a commitment to its questions and answers, and after it ends anyone can check the questions against that commitment.
- Every answer you give gets a signed receipt from our server: what you answered, when it arrived and how long you took. You can check a receipt at any time on the Verify receipt page.
- Results are checked for fair play when a tournament ends. A prize may be held for review (for example unusual answer timing, or a device or network shared with another player). A reviewed prize is either released to you or forfeited; you are told which.

## Disputes

- Write to {{SUPPORT_EMAIL}} within 30 days of the tournament's end, with the tournament, your username and what you believe went wrong. Your answer receipts help: they show exactly what our server recorded.
- We acknowledge a dispute within 3 business days and answer it in full within 14 days. A prize under review is decided within the same 14 days unless we tell you why more time is needed.
- If we find an error in a result, we correct the ranking and the prizes and tell every player affected. Our decision on a dispute is final within these rules, without limiting any right you have by law.

## Changes

A new version of these rules has a new version number and effective date, and you are asked to accept it before your next deposit, paid entry or withdrawal. A tournament you have already entered is played under the rules in force when you joined.
`,
} as const;
