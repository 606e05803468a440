import { describe, expect, it } from "vitest";
import {
  csvField,
  einProblem,
  FORM_1099_COLUMNS,
  form1099MiscRows,
  formatThresholdUsd,
  formatTin,
  isTaxYear,
  isUsTaxPayee,
  maskedTin,
  ssnProblem,
  taxFormRequired,
  taxYearBounds,
  taxYearOf,
  thresholdCentsOf,
  thresholdReached,
  tinDigits,
  toCsv,
} from "./tax";

describe("isUsTaxPayee", () => {
  it("is the account's country, any case, or the request's; a verified country wins over both; a W-9 on file always is", () => {
    expect(isUsTaxPayee({ country: "US" })).toBe(true);
    expect(isUsTaxPayee({ country: "us" })).toBe(true);
    expect(isUsTaxPayee({ country: "CA" })).toBe(false);
    expect(isUsTaxPayee({ country: null })).toBe(false);
    expect(isUsTaxPayee({ country: "CA", requestCountry: "US" })).toBe(true);
    expect(isUsTaxPayee({ country: null, requestCountry: "DE" })).toBe(false);
    expect(isUsTaxPayee({ country: "CA", verifiedCountry: "US" })).toBe(true);
    // A foreign document does not make a US resident a non-US payee.
    expect(isUsTaxPayee({ country: "US", requestCountry: "US", verifiedCountry: "GB" })).toBe(true);
    expect(isUsTaxPayee({ country: "GB", requestCountry: "GB", verifiedCountry: "GB" })).toBe(false);
    expect(isUsTaxPayee({ country: "US", verifiedCountry: null })).toBe(true);
    expect(isUsTaxPayee({ country: "GB", verifiedCountry: "GB", formOnFile: true })).toBe(true);
  });
});

describe("calendar years (UTC)", () => {
  it("puts the last millisecond of a year in it and the first of the next in the next", () => {
    expect(taxYearOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe(2026);
    expect(taxYearOf(Date.UTC(2027, 0, 1))).toBe(2027);
    // New Year's Eve in New York is already the next year in UTC.
    expect(taxYearOf(Date.parse("2026-12-31T20:00:00-05:00"))).toBe(2027);
  });

  it("bounds a year as [1 Jan, next 1 Jan)", () => {
    expect(taxYearBounds(2026)).toEqual({ from: Date.parse("2026-01-01T00:00:00Z"), to: Date.parse("2027-01-01T00:00:00Z") });
  });

  it("accepts years from 2000 to next year", () => {
    const now = Date.UTC(2026, 5, 1);
    expect(isTaxYear(2026, now)).toBe(true);
    expect(isTaxYear(2027, now)).toBe(true);
    expect(isTaxYear(2028, now)).toBe(false);
    expect(isTaxYear(1999, now)).toBe(false);
    expect(isTaxYear(2026.5, now)).toBe(false);
  });
});

describe("the threshold", () => {
  it("reads the setting in USD, $2,000 when empty, and refuses a malformed one", () => {
    expect(thresholdCentsOf(undefined)).toBe(200_000);
    expect(thresholdCentsOf("")).toBe(200_000);
    expect(thresholdCentsOf("600")).toBe(60_000);
    expect(thresholdCentsOf(" 600.5 ")).toBe(60_050);
    expect(thresholdCentsOf("0.01")).toBe(1);
    for (const bad of ["0", "-5", "abc", "1,000", "10.001", "1e3"])
      expect(() => thresholdCentsOf(bad)).toThrow(/TAX_REPORTING_THRESHOLD_USD/);
  });

  it("reads as the player reads it", () => {
    expect(formatThresholdUsd(200_000)).toBe("2,000");
    expect(formatThresholdUsd(60_050)).toBe("600.50");
    expect(formatThresholdUsd(123_456_789)).toBe("1,234,567.89");
  });

  it("is reached at the amount itself, not a cent before", () => {
    expect(thresholdReached(199_999, 200_000)).toBe(false);
    expect(thresholdReached(200_000, 200_000)).toBe(true);
    expect(thresholdReached(200_001, 200_000)).toBe(true);
  });

  it("requires a form only of a US payee at the threshold without one", () => {
    const base = { usPayee: true, yearPrizesCents: 200_000, thresholdCents: 200_000, formOnFile: false };
    expect(taxFormRequired(base)).toBe(true);
    expect(taxFormRequired({ ...base, formOnFile: true })).toBe(false);
    expect(taxFormRequired({ ...base, usPayee: false })).toBe(false);
    expect(taxFormRequired({ ...base, yearPrizesCents: 199_999 })).toBe(false);
  });
});

describe("taxpayer identification numbers", () => {
  it("drops dashes and spaces only", () => {
    expect(tinDigits("123-45-6789")).toBe("123456789");
    expect(tinDigits(" 12 3456789 ")).toBe("123456789");
    expect(tinDigits("12a456789")).toBe("12a456789");
  });

  it("accepts an SSN the SSA can have issued", () => {
    expect(ssnProblem("123456789")).toBeNull();
    expect(ssnProblem("665010001")).toBeNull();
    expect(ssnProblem("899990001")).toBeNull();
  });

  it.each([
    ["8 digits", "12345678", "format"],
    ["10 digits", "1234567890", "format"],
    ["letters", "12345678a", "format"],
    ["area 000", "000123456", "ssn_area"],
    ["area 666", "666123456", "ssn_area"],
    ["area 900 (an ITIN)", "900701234", "ssn_area"],
    ["area 999", "999123456", "ssn_area"],
    ["group 00", "123001234", "ssn_group"],
    ["serial 0000", "123450000", "ssn_serial"],
  ])("refuses an SSN with %s", (_name, digits, problem) => {
    expect(ssnProblem(digits)).toBe(problem);
  });

  it("accepts EINs under the IRS's prefixes and refuses the others", () => {
    for (const prefix of ["01", "06", "10", "16", "20", "27", "30", "48", "50", "68", "71", "77", "80", "88", "90", "95", "98", "99"]) {
      expect(einProblem(`${prefix}3456789`), prefix).toBeNull();
    }
    for (const prefix of ["00", "07", "08", "09", "17", "18", "19", "28", "29", "49", "69", "70", "78", "79", "89", "96", "97"]) {
      expect(einProblem(`${prefix}3456789`), prefix).toBe("ein_prefix");
    }
    expect(einProblem("1234567")).toBe("format");
  });

  it("formats and masks as the IRS writes them", () => {
    expect(formatTin("ssn", "123456789")).toBe("123-45-6789");
    expect(formatTin("ein", "123456789")).toBe("12-3456789");
    expect(maskedTin("ssn", "6789")).toBe("***-**-6789");
    expect(maskedTin("ein", "6789")).toBe("**-***6789");
  });
});

describe("the 1099-MISC rows", () => {
  const payer = { name: "Trivia Arena, Inc.", tin: "123456789", street: "1 Main St", city: "Springfield", state: "IL", zip: "62701" };
  const payees = [
    {
      userId: 7,
      tinType: "ssn" as const,
      tin: "123456789",
      name: "Ada Lovelace",
      businessName: null,
      street: "2 Elm St",
      city: "Boston",
      state: "MA",
      zip: "02110",
      cents: 250_001,
    },
    { userId: 9, tinType: null, tin: null, name: "bytebard", businessName: null, street: "", city: "", state: "", zip: "", cents: 300_000 },
  ];

  it("is a header, the payer (A), each payee (B) and the total (C), every row as wide as the header", () => {
    const rows = form1099MiscRows(2026, payer, payees);
    expect(rows.map((r) => r[0])).toEqual(["record_type", "A", "B", "B", "C"]);
    expect(rows.every((r) => r.length === FORM_1099_COLUMNS.length)).toBe(true);
    const col = (name: (typeof FORM_1099_COLUMNS)[number]) => FORM_1099_COLUMNS.indexOf(name);
    expect(rows[1]![col("tin")]).toBe("123456789");
    expect(rows[2]![col("tin_type")]).toBe("2");
    expect(rows[2]![col("payment_amount_3_cents")]).toBe("250001");
    expect(rows[2]![col("box_3_other_income_usd")]).toBe("2500.01");
    expect(rows[3]![col("tin")]).toBe("");
    expect(rows[3]![col("w9_on_file")]).toBe("no");
    expect(rows[3]![col("note")]).toMatch(/backup withholding/);
    expect(rows[4]![col("payment_amount_3_cents")]).toBe("550001");
    expect(rows[4]![col("box_3_other_income_usd")]).toBe("5500.01");
    expect(rows[4]![col("number_of_payees")]).toBe("2");
  });

  it("quotes what CSV needs quoted and defuses spreadsheet formulas", () => {
    expect(csvField("Smith, Jones & Co")).toBe('"Smith, Jones & Co"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("=cmd()")).toBe("'=cmd()");
    expect(csvField(1234)).toBe("1234");
    expect(
      toCsv([
        ["a", "b"],
        ["c,d", "e"],
      ]),
    ).toBe('a,b\r\n"c,d",e\r\n');
  });
});
