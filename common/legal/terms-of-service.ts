// The Terms of Service as players read them at /terms. Changing the text means a new version (and
// its effective date): every player is asked to accept it before their next deposit, paid entry
// or withdrawal (docs/player-data.md). documents.test.ts pins the text to the version.
// {{NAME}} placeholders are filled when the page is served (common/domain/legal.ts).
export const TERMS_OF_SERVICE = {
  version: "1.0",
  effectiveDate: "2026-11-26",
  body: `# Terms of Service

These terms are the agreement between you and Trivia Arena ("we", "us") for using this site: playing trivia tournaments, holding a balance, entering paid contests and withdrawing winnings. The Official Contest Rules and the Privacy Policy are part of this agreement. If you do not agree, do not use the site.

## Who may play

- You must be at least 18 years old, or older where the law of your region says so. The regions with a higher minimum age are listed in the Official Contest Rules.
- Paid contests are void where prohibited. Deposits, paid entries, prizes paid by the house and withdrawals are refused from the regions listed in the Official Contest Rules. Free tournaments without a prize stay open everywhere.
- One person, one account. Your account is yours alone: do not share it, sell it or let anyone play for you.
- Staff of Trivia Arena, and accounts on a device or network our staff use, cannot play for prizes.

## Your account

- Keep your password (and your two-factor codes, if you turn them on) secret. You are responsible for what is done with your account until you tell us it was taken.
- Give true information. The date of birth you give is used for every age rule and is given once; to correct a mistake, contact support.
- We may suspend or close an account that breaks these terms or the Official Contest Rules, cheats, or is used for fraud. A suspended or banned player can still withdraw a balance that was fairly won, through support where the site does not allow it.

## Money

- Amounts are in US dollars. Deposits are made by card through our payment provider. A deposit is credited once the provider confirms it.
- Your balance is not a bank account and earns no interest. Entry fees are taken from it when you join a paid tournament; prizes are added to it when a tournament is settled.
- Withdrawals go back to the card you paid with first (card deposits of the last 120 days), and the rest to a bank account in your name. A withdrawal may be refused or held where the law, our payment provider or a fair-play review requires it.
- If a card payment is refunded or disputed, the amount is taken back from your balance; what the balance cannot cover is owed, and the account is frozen until it is settled.
- You can set deposit and entry-fee limits, take a short break or exclude yourself from play in your profile. We honour them as described there.

## Fair play

- Play on your own, with your own knowledge. No bots, scripts, shared answers, multiple accounts or collusion.
- The house never plays against you: every prize comes from the entry fees of the players in that tournament (or from a prize pool we fund and announce), never from a player the house controls.
- A prize may be held for a fair-play review before it is paid. The Official Contest Rules say how reviews and disputes work.

## Changes to these terms

We may change these terms. A new version has a new version number and effective date, and you are asked to read and accept it before your next deposit, paid entry or withdrawal. Free play and reading the site stay open while you decide.

## Ending

You may delete your account from your profile once your balance is zero, no withdrawal is pending and you hold no seat in a tournament that has not ended. The Privacy Policy says what we keep after a deletion and why.

## Liability

The site is provided as it is. We do our best to keep it running and fair, but we do not promise that it will be free of interruptions. Where a fault on our side affects a paid tournament, we cancel it and refund the entry fees, or settle it by the Official Contest Rules. Nothing in these terms limits rights you have by law that cannot be limited.

## Contact

Questions about these terms: {{SUPPORT_EMAIL}}.
`,
} as const;
