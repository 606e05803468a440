// Test helper: reads a NACHA (ACH) file back field by field, for the tests of the file builder
// (common/domain/nacha.test.ts) and of the console's export (worker/test/admin-payouts.test.ts).
// Written from the format's tables rather than from the builder, so a test can catch a field the
// builder puts in the wrong place.
import { expect } from "vitest";

const FILLER = "9".repeat(94);

/** Characters `from` to `to` of a record: 1-based, inclusive positions, as the NACHA tables give them. */
const field = (record: string, from: number, to: number) => record.slice(from - 1, to);

/** The file's records and the fields the tests check; amounts in cents. */
export function readAchFile(text: string) {
  expect(text.endsWith("\n"), "an ACH file ends with a newline").toBe(true);
  const lines = text.slice(0, -1).split("\n");
  const records = lines.filter((l) => l !== FILLER);
  const ofType = (type: string) => records.filter((l) => l[0] === type);
  const [header] = ofType("1");
  const [batchHeader] = ofType("5");
  const [batchControl] = ofType("8");
  const [fileControl] = ofType("9");
  return {
    /** Every line, the 9-filled filler included. */
    lines,
    /** The record types in order, the filler left out (e.g. "15668" + "9"). */
    types: records.map((l) => l[0]).join(""),
    /** Whether all the filler comes after the file control record. */
    fillerAfterControl: lines.slice(records.length).every((l) => l === FILLER),
    header: {
      destination: field(header!, 4, 13),
      origin: field(header!, 14, 23),
      recordSize: field(header!, 35, 37),
      blocking: field(header!, 38, 39),
    },
    batchHeader: {
      serviceClass: field(batchHeader!, 2, 4),
      company: field(batchHeader!, 5, 20).trimEnd(),
      sec: field(batchHeader!, 51, 53),
      odfi: field(batchHeader!, 80, 87),
      batch: field(batchHeader!, 88, 94),
    },
    entries: ofType("6").map((l) => ({
      code: field(l, 2, 3),
      rdfi: field(l, 4, 11),
      checkDigit: field(l, 12, 12),
      account: field(l, 13, 29).trimEnd(),
      amountCents: Number(field(l, 30, 39)),
      id: field(l, 40, 54).trimEnd(),
      name: field(l, 55, 76).trimEnd(),
      addenda: field(l, 79, 79),
      trace: field(l, 80, 94),
    })),
    batchControl: {
      serviceClass: field(batchControl!, 2, 4),
      entryCount: Number(field(batchControl!, 5, 10)),
      hash: field(batchControl!, 11, 20),
      debitCents: Number(field(batchControl!, 21, 32)),
      creditCents: Number(field(batchControl!, 33, 44)),
      batch: field(batchControl!, 88, 94),
    },
    fileControl: {
      batches: Number(field(fileControl!, 2, 7)),
      blocks: Number(field(fileControl!, 8, 13)),
      entryCount: Number(field(fileControl!, 14, 21)),
      hash: field(fileControl!, 22, 31),
      debitCents: Number(field(fileControl!, 32, 43)),
      creditCents: Number(field(fileControl!, 44, 55)),
    },
  };
}
