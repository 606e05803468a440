// Identity rules without I/O (docs/identity-and-tax.md, "Identity"): whether a bank account's
// holder name is the verified legal name, what one person's identity key is made of, and when a
// bank withdrawal needs a (new) verification.

/**
 * A name as comparable words: accents and other diacritics dropped (é → e, ø → o, ß → ss), lower
 * case, hyphens and other separators as spaces, apostrophes and dots removed ("O'Brien" is
 * "obrien", "J." is "j"), anything else that is neither a letter nor a digit dropped.
 */
export function nameWords(name: string): string[] {
  const folded = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/[øØ]/g, "o")
    .replace(/[łŁ]/g, "l")
    .replace(/[đĐ]/g, "d")
    .replace(/[æÆ]/g, "ae")
    .toLowerCase()
    .replace(/['’‘`.]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return folded === "" ? [] : folded.split(" ");
}

export interface LegalName {
  /** Given names as the document states them: the first word is the first name, the rest middle names. */
  firstName: string;
  /** Family name(s): every word of it must be in the holder name. */
  lastName: string;
}

/** Generational suffixes, which a document or a bank may write or leave out. */
const SUFFIXES: ReadonlySet<string> = new Set(["jr", "sr", "ii", "iii", "iv"]);

const withoutSuffix = (words: string[]) => (words.length > 1 && SUFFIXES.has(words.at(-1)!) ? words.slice(0, -1) : words);

/** "Lovelace, Ada King" (a comma) is read as "Ada King Lovelace", as banks often write it. */
function holderWords(holder: string): string[] {
  const comma = holder.indexOf(",");
  if (comma < 0) return withoutSuffix(nameWords(holder));
  const after = nameWords(holder.slice(comma + 1));
  // "Hopper, Grace Jr" or "Grace Hopper, Jr": a suffix after the comma is not a given name.
  if (after.length === 1 && SUFFIXES.has(after[0]!)) return nameWords(holder.slice(0, comma));
  return withoutSuffix([...withoutSuffix(after), ...nameWords(holder.slice(0, comma))]);
}

/**
 * Whether a bank account holder name names the verified person. The holder name must start with
 * the legal first name and end with every word of the legal last name (so a compound or hyphenated
 * family name is needed in full, with a hyphen or a space); between them it may leave middle
 * names out or give them as initials, in the document's order, but may add no other word.
 * Case, accents, hyphens, apostrophes and dots never matter, nor a generational suffix (Jr, Sr,
 * II, III, IV) at the end of either name.
 */
export function holderNameMatches(holder: string, legal: LegalName): boolean {
  const h = holderWords(holder);
  const [first, ...middles] = nameWords(legal.firstName);
  const last = withoutSuffix(nameWords(legal.lastName));
  if (!first || last.length === 0 || h.length < 1 + last.length) return false;
  if (h[0] !== first) return false;
  const tail = h.slice(h.length - last.length);
  if (tail.some((w, i) => w !== last[i])) return false;
  // The words between: each one a middle name or its initial, in order, none twice.
  let next = 0;
  for (const word of h.slice(1, h.length - last.length)) {
    let found = false;
    while (next < middles.length) {
      const m = middles[next++]!;
      if (m === word || (word.length === 1 && m.startsWith(word))) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

/** A document number as issued, whatever its spacing or dashes: letters and digits, upper case. */
export const normaliseDocumentNumber = (n: string) => n.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase();

/**
 * What the keyed hash of one person is made of: the document number with its issuing country;
 * where the provider gives no number, the legal name's words and the date of birth.
 */
export function identityKeyInput(v: {
  documentNumber: string | null;
  documentCountry: string | null;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
}): string {
  const number = v.documentNumber ? normaliseDocumentNumber(v.documentNumber) : "";
  if (number !== "" && v.documentCountry) return `document:${v.documentCountry.trim().toUpperCase()}:${number}`;
  return `name:${[...nameWords(v.firstName), ...nameWords(v.lastName)].join(" ")}:${v.dateOfBirth}`;
}

/**
 * Whether a verification still covers a bank withdrawal that takes lifetime withdrawals to
 * `lifetimeAfterCents`: the first verification covers up to the threshold; a player who passes it
 * verifies once more, and that later verification covers everything after. A threshold of null
 * (unset) never asks again.
 */
export function verificationCovers(verifiedCount: number, lifetimeAfterCents: number, thresholdCents: number | null): boolean {
  if (verifiedCount <= 0) return false;
  if (thresholdCents === null || verifiedCount >= 2) return true;
  return lifetimeAfterCents <= thresholdCents;
}
