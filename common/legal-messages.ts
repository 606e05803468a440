// Player-facing texts of the legal documents, their acceptance, the data export and what an
// account deletion keeps (docs/player-data.md). Apart from common/messages.ts, which is on every
// page's first download: these are read only by the Worker and by pages and dialogs loaded later.

/** The legal documents and their acceptance (docs/player-data.md), as the API and the web app say it. */
export const LEGAL = {
  mustAgree: "Please agree to the Terms of Service and Official Rules and confirm you have read the Privacy Policy to create an account.",
  /** `titles` reads like "Terms of Service and Privacy Policy". */
  notAccepted: (titles: string) =>
    `We updated our ${titles}. Please read and accept the new version before depositing, entering a paid tournament or withdrawing.`,
  stale: "These are not the current versions of our documents: please read the current ones and accept again.",
  accepted: "Thank you: the new versions are accepted.",
  dialogTitle: "We updated our documents",
  dialogIntro:
    "Before your next deposit, paid entry or withdrawal, please read what changed and accept it. Free play stays open either way.",
  acceptButton: "I agree",
  notNow: "Not now",
  version: (version: string, effectiveDate: string) => `Version ${version}, effective ${effectiveDate}`,
  exportTitle: "Your data",
  exportText:
    "Download everything we hold about your account as a JSON file: profile, ledger, tournaments, answers with receipts, sessions, notifications, limits and the documents you accepted.",
  exportButton: "Download my data",
  exportLimited: "You downloaded your data several times in the last hour. Please try again later.",
} as const;

/** What deleting an account erases and keeps, as the privacy policy says (worker/routes/user.ts does it). */
export const ACCOUNT_DELETION = {
  erases: [
    "Your username and email (replaced by “Deleted player” and a placeholder), password, picture, bio, location, country (a US prize winner’s stays with the tax records), social links and preferences",
    "Two-factor secret and recovery codes, and every session (you are signed out everywhere)",
    "Your notifications, the email links we sent you and the record of which documents you accepted",
  ],
  keeps: [
    "Ledger entries and payout records (amounts, dates, card fingerprints, bank details of withdrawals): accounting and anti-fraud rules require them",
    "Tax records, such as a W-9 and the reports made from it: kept for the years tax law requires",
    "Tournament results, answers and receipts, under “Deleted player”: finished contests stay checkable for everyone who played",
    "Your date of birth and identity verification result, with the ledger: they show prizes went to an eligible adult",
    "If you excluded yourself: keyed hashes of your email, cards and bank accounts until the exclusion ends, so a new account is excluded too",
  ],
} as const;
