// A changed text must come with a new version, or players would be held to words they never
// accepted: each version is pinned to a digest of its text. Changing a document: give it a new
// version and effective date in its module, then put the new digest here.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fillLegalText, legalValues } from "../domain/legal";
import { CURRENT_LEGAL_VERSIONS, LEGAL_DOCUMENTS } from "./documents";
import { LEGAL_DOCUMENT_IDS } from "./legal-catalog";

const PINNED: Record<string, string> = {
  "terms@1.0": "81f9bd8849947317",
  "rules@1.0": "b2aef4121b66723b",
  "privacy@1.1": "8c63d6fbb0cfac0e",
};

describe("legal documents", () => {
  it.each(LEGAL_DOCUMENT_IDS)("%s: the text is the one its version was pinned with", (id) => {
    const d = LEGAL_DOCUMENTS[id];
    const digest = createHash("sha256").update(d.body).digest("hex").slice(0, 16);
    expect(`${id}@${d.version} ${digest}`).toBe(`${id}@${d.version} ${PINNED[`${id}@${d.version}`]}`);
  });

  it.each(LEGAL_DOCUMENT_IDS)("%s: has a version, an effective date and only known placeholders", (id) => {
    const d = LEGAL_DOCUMENTS[id];
    expect(CURRENT_LEGAL_VERSIONS[id]).toBe(d.version);
    expect(d.effectiveDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(() => fillLegalText(d.body, legalValues({ barredRegions: "", regionMinAges: "", supportEmail: "" }))).not.toThrow();
  });

  it("the rules name what the issue requires: eligibility, void regions, prizes, tie-breaks, the house never plays, disputes", () => {
    const rules = LEGAL_DOCUMENTS.rules.body;
    for (const part of [
      "## Eligibility",
      "{{BARRED_REGIONS}}",
      "## Prizes",
      "## Ranking and tie-breaks",
      "The house never plays",
      "## Disputes",
    ]) {
      expect(rules).toContain(part);
    }
  });
});
