// The Privacy Policy as players read it at /privacy. Changing the text means a new version (and
// its effective date): every player is asked to acknowledge it before their next deposit, paid
// entry or withdrawal (docs/player-data.md). documents.test.ts pins the text to the version. What
// it says is kept and erased must match worker/routes/user.ts (deletion) and
// worker/routes/user-data-export.ts (the export).
export const PRIVACY_POLICY = {
  version: "1.1",
  effectiveDate: "2026-11-26",
  body: `# Privacy Policy

This policy says what Trivia Arena stores about you, why, how long, and what you can do about it.

## What we store

- **Your account**: username, email address and whether you confirmed it, a one-way hash of your password (never the password), date of birth, country, and what you chose to add to your profile (picture, bio, location, social links, preferences).
- **Your money**: every ledger entry (deposits, entry fees, prizes, refunds, withdrawals), your deposit checkouts with the card's fingerprint from our payment provider (never the card number), and each withdrawal's bank details: account holder name, routing number, the last 4 digits of the account number, and the full account number sealed with encryption so only the payout file can use it.
- **Your play**: the tournaments you entered, each answer you gave with the time our server received it and how long you took (the facts behind your answer receipts), scores, ranks, prizes and any fair-play review.
- **Your sessions**: when each sign-in began, was last used and expires. The session token itself is never stored, only a hash of it.
- **Device and network hashes**: a keyed hash of your device cookie and of your network address at each tournament entry (and of the address when you accept these documents), used to find collusion and to keep staff out of prize play. The cookie and the address themselves are not stored.
- **Two-factor authentication**: the secret of your authenticator app, encrypted, and hashes of your recovery codes.
- **Responsible-play settings**: your limits, breaks and self-exclusion.
- **Notifications** we sent you, and the versions of these documents you accepted.
- **Identity verification and tax details**, where required before a withdrawal: the verification provider's result and reference, your verified name and date of birth (never images of your documents); and for US winners a tax form with your taxpayer number sealed with encryption, shown only by its last 4 digits.

## Why

To run your account and tournaments, to move your money correctly, to keep play fair, to honour your limits and self-exclusion, to meet the law on age, regions, payments and tax, and to answer your questions and disputes. We do not sell your data and do not use it for advertising.

## Who else sees it

Our payment provider (card payments and refunds), our bank (withdrawals), our email provider (account mail), our identity verification provider where verification is required, and tax authorities where the law requires a report. Other players see only your public profile: username, picture, level and results, as your visibility settings allow.

## How long we keep it

While your account is open we keep what is listed above. Sessions end after 30 days at most. When you delete your account, see below.

## Your rights

- **Download your data**: in your profile, "Download my data" gives you a file (JSON) with your profile, ledger, tournaments, answers with their receipts, sessions, notifications, limits and the documents you accepted. It never contains your password hash, two-factor secrets, session tokens or full bank account numbers.
- **Correct it**: edit your profile; for your date of birth, contact support.
- **Delete your account**: in your profile, once your balance is zero, no withdrawal is pending and you hold no seat in a tournament that has not ended.

## What a deletion erases and what it keeps

Erased: your username and email (replaced by "Deleted player" and a placeholder), password, picture, bio, location, country (unless you live in the US and were paid a prize: then it stays with the tax records below), social links, preferences, two-factor secret and recovery codes, every session, your notifications, the email links we sent you and the record of which documents you accepted.

Kept, because the law or the fairness of finished contests requires it:

- **Ledger entries and payout records** (amounts, dates, deposit checkouts with their card fingerprints, and each withdrawal's bank details as described above), for accounting and anti-fraud rules. We keep them for as long as those rules require; this site does not delete them by itself.
- **Tax records** (tax forms, the reports made from them and, for a US prize winner, the country that puts the prizes in those reports), for the years the tax law requires.
- **Tournament results and answers**, without your name: the rankings, prizes, answers (with their receipts), fair-play records and the device and network hashes of your entries, so finished tournaments stay checkable and reviewable for everyone who played them.
- **Your date of birth and identity verification result**, attached to the anonymised ledger, to show that prizes were paid to an eligible adult.
- **The self-exclusion marker**: if you excluded yourself, keyed hashes of your email, cards and bank accounts (never the values themselves) are kept until the exclusion ends, so a new account of yours is excluded too.

## Contact

Questions or requests about your data: {{SUPPORT_EMAIL}}.
`,
} as const;
