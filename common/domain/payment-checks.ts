// Checksums that catch mistyped card and bank numbers before anything is stored or sent.

const digitsOf = (s: string) => Array.from(s, Number);

/** Luhn (mod 10) check used by every card number. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  digitsOf(number)
    .reverse()
    .forEach((d, i) => {
      const v = i % 2 === 1 ? d * 2 : d;
      sum += v > 9 ? v - 9 : v;
    });
  return sum % 10 === 0;
}

/** First two digits the Federal Reserve assigns (00-12 banks, 21-32 thrifts, 61-72 electronic, 80 traveller's cheques). */
const ROUTING_PREFIX = /^(0[0-9]|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/;
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

/** ABA routing number: 9 digits, a valid prefix, and 3-7-1 weighted digits summing to a multiple of 10. */
export function isValidRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing) || /^0{9}$/.test(routing) || !ROUTING_PREFIX.test(routing)) return false;
  const sum = digitsOf(routing).reduce((acc, d, i) => acc + d * ABA_WEIGHTS[i]!, 0);
  return sum % 10 === 0;
}
