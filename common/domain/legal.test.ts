import { describe, expect, it } from "vitest";
import { fillLegalText, inlineSegments, legalValues, outstandingDocuments, parseLegalText, staleDocuments } from "./legal";

const current = { terms: "2.0", rules: "1.1", privacy: "1.0" };

describe("which documents a player still has to accept", () => {
  it("is none when each version in force was accepted", () => {
    const accepted = [
      { document: "terms", version: "2.0" },
      { document: "rules", version: "1.1" },
      { document: "privacy", version: "1.0" },
    ];
    expect(outstandingDocuments(current, accepted)).toEqual([]);
  });

  it("names a document whose new version was not accepted, whatever older versions were", () => {
    const accepted = [
      { document: "terms", version: "1.0" },
      { document: "rules", version: "1.1" },
      { document: "privacy", version: "1.0" },
    ];
    expect(outstandingDocuments(current, accepted)).toEqual(["terms"]);
    expect(outstandingDocuments(current, [])).toEqual(["terms", "rules", "privacy"]);
  });

  it("does not take one document's version for another's", () => {
    expect(outstandingDocuments({ terms: "1.0" }, [{ document: "rules", version: "1.0" }])).toEqual(["terms"]);
  });
});

describe("an acceptance of the versions shown", () => {
  it("passes with exactly the versions in force", () => {
    expect(staleDocuments(current, { terms: "2.0", rules: "1.1", privacy: "1.0" })).toEqual([]);
  });

  it("names a document shown in an older version, or left out", () => {
    expect(staleDocuments(current, { terms: "1.0", rules: "1.1", privacy: "1.0" })).toEqual(["terms"]);
    expect(staleDocuments(current, { terms: "2.0" })).toEqual(["rules", "privacy"]);
  });
});

describe("filling a document", () => {
  const values = legalValues({ barredRegions: " us-wa, FR ", regionMinAges: "US-AL:19,US-MS:21,DE:18", supportEmail: "help@example.org" });

  it("lists the barred regions and the higher minimum ages from the settings", () => {
    expect(fillLegalText("Void in {{BARRED_REGIONS}}; ages {{REGION_MIN_AGES}}.", values)).toBe(
      "Void in US-WA, FR; ages US-AL: 19, US-MS: 21.",
    );
  });

  it("says so when nothing is barred and no address is published", () => {
    const none = legalValues({ barredRegions: "", regionMinAges: undefined, supportEmail: " " });
    expect(fillLegalText("{{BARRED_REGIONS}} / {{REGION_MIN_AGES}} / {{SUPPORT_EMAIL}}", none)).toBe(
      "none at present / none at present / the support address on our Contact page",
    );
  });

  it("takes the prize figures from the product's constants (85% pool, 65/25/10)", () => {
    expect(fillLegalText("{{POOL_PERCENT}}% / {{HOUSE_PERCENT}}% / {{PRIZE_SHARES}}", values)).toBe(
      "85% / 15% / 65% (1st), 25% (2nd), 10% (3rd)",
    );
  });

  it("refuses a placeholder it has no value for", () => {
    expect(() => fillLegalText("{{NOPE}}", values)).toThrow(/NOPE/);
  });
});

describe("splitting a document into blocks", () => {
  it("knows headings, paragraphs and both kinds of list", () => {
    const text = "# Title\n\nFirst line\nsame paragraph.\n\n## Part\n- one\n- two\n\n1. first\n2. second\n";
    expect(parseLegalText(text)).toEqual([
      { kind: "heading", level: 1, text: "Title" },
      { kind: "paragraph", text: "First line same paragraph." },
      { kind: "heading", level: 2, text: "Part" },
      { kind: "list", ordered: false, items: ["one", "two"] },
      { kind: "list", ordered: true, items: ["first", "second"] },
    ]);
  });

  it("keeps markup as plain text", () => {
    expect(parseLegalText("<script>alert(1)</script>")).toEqual([{ kind: "paragraph", text: "<script>alert(1)</script>" }]);
  });

  it("splits bold runs out of a line", () => {
    expect(inlineSegments("a **b** c")).toEqual([
      { text: "a ", bold: false },
      { text: "b", bold: true },
      { text: " c", bold: false },
    ]);
  });
});
