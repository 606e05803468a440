import { describe, expect, it } from "vitest";
import { holderNameMatches, identityKeyInput, nameWords, normaliseDocumentNumber, verificationCovers } from "./identity";

const ada = { firstName: "Ada King", lastName: "Lovelace" };

describe("holderNameMatches", () => {
  it.each([
    ["Ada Lovelace", "the first and last name; the middle name is optional"],
    ["ADA LOVELACE", "case"],
    ["ada king lovelace", "the middle name given"],
    ["Ada K. Lovelace", "the middle name as an initial"],
    ["Lovelace, Ada", "last name first, with a comma"],
    ["  Ada   Lovelace ", "spacing"],
  ])("%s matches (%s)", (holder) => expect(holderNameMatches(holder, ada)).toBe(true));

  it.each([
    ["Ada Byron", "another last name"],
    ["Augusta Lovelace", "another first name"],
    ["A. Lovelace", "the first name as an initial"],
    ["Ada Mary Lovelace", "a middle name the document does not have"],
    ["Ada", "no last name"],
    ["Lovelace Ada", "the words swapped without a comma"],
    ["", "empty"],
  ])("%s does not match (%s)", (holder) => expect(holderNameMatches(holder, ada)).toBe(false));

  it("ignores accents and diacritics both ways", () => {
    const jose = { firstName: "José", lastName: "Núñez" };
    expect(holderNameMatches("Jose Nunez", jose)).toBe(true);
    expect(holderNameMatches("JOSÉ NÚÑEZ", { firstName: "Jose", lastName: "Nunez" })).toBe(true);
    expect(holderNameMatches("Soren Ostergaard", { firstName: "Søren", lastName: "Østergaard" })).toBe(true);
  });

  it("treats a hyphen as a space and needs a compound last name in full", () => {
    const maria = { firstName: "María-José", lastName: "García-López" };
    expect(holderNameMatches("Maria Jose Garcia Lopez", maria)).toBe(true);
    expect(holderNameMatches("María-José García-López", maria)).toBe(true);
    // The second part of a hyphenated first name counts as a middle name: optional.
    expect(holderNameMatches("Maria Garcia-Lopez", maria)).toBe(true);
    expect(holderNameMatches("Maria-Jose Garcia", maria)).toBe(false);
  });

  it("drops apostrophes and dots", () => {
    expect(holderNameMatches("Sean OBrien", { firstName: "Seán", lastName: "O'Brien" })).toBe(true);
    expect(holderNameMatches("Sean O Brien", { firstName: "Seán", lastName: "O'Brien" })).toBe(false);
  });

  it("ignores a generational suffix on either side", () => {
    const grace = { firstName: "Grace Brewster Murray", lastName: "Hopper" };
    expect(holderNameMatches("Grace Brewster Murray Hopper Jr", grace)).toBe(true);
    expect(holderNameMatches("Grace Hopper, Jr", grace)).toBe(true);
    expect(holderNameMatches("Grace Hopper", { firstName: "Grace", lastName: "Hopper III" })).toBe(true);
  });

  it("keeps middle names in the document's order", () => {
    const three = { firstName: "John Ronald Reuel", lastName: "Tolkien" };
    expect(holderNameMatches("John R R Tolkien", three)).toBe(true);
    expect(holderNameMatches("John Reuel Tolkien", three)).toBe(true);
    expect(holderNameMatches("John Reuel Ronald Tolkien", three)).toBe(false);
  });
});

describe("identity key", () => {
  it("uses the document number and country, however the number is written", () => {
    const base = { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-01-01" };
    expect(identityKeyInput({ ...base, documentNumber: "x12-345 678", documentCountry: "gb" })).toBe("document:GB:X12345678");
    expect(identityKeyInput({ ...base, documentNumber: "X12345678", documentCountry: "GB", firstName: "Other" })).toBe(
      "document:GB:X12345678",
    );
    expect(normaliseDocumentNumber(" d 1-2 ")).toBe("D12");
  });

  it("falls back to name and date of birth without a number", () => {
    expect(
      identityKeyInput({
        documentNumber: null,
        documentCountry: "US",
        firstName: "Zoë",
        lastName: "Saldaña-Nazario",
        dateOfBirth: "1978-06-19",
      }),
    ).toBe("name:zoe saldana nazario:1978-06-19");
    expect(nameWords("Zoë  Saldaña")).toEqual(["zoe", "saldana"]);
  });
});

describe("verificationCovers", () => {
  it("needs a verification at all", () => expect(verificationCovers(0, 100, 500_000)).toBe(false));
  it("the first covers up to the threshold, included", () => {
    expect(verificationCovers(1, 500_000, 500_000)).toBe(true);
    expect(verificationCovers(1, 500_001, 500_000)).toBe(false);
  });
  it("a second covers everything after", () => expect(verificationCovers(2, 10_000_000, 500_000)).toBe(true));
  it("no threshold never asks again", () => expect(verificationCovers(1, 10_000_000, null)).toBe(true));
});
