import { describe, expect, it } from "vitest";
import { buildAchFile, entryHash, type AchCredit, type AchOriginator } from "./nacha";

const originator: AchOriginator = {
  immediateDestination: "091000019",
  immediateDestinationName: "Wells Fargo",
  immediateOrigin: "1234567890",
  immediateOriginName: "Trivia Arena",
  companyName: "Trivia Arena",
  companyId: "1234567890",
  odfiRouting: "091000019",
};

const credits: AchCredit[] = [
  { routingNumber: "021000021", accountNumber: "000123456789", accountType: "checking", amountCents: 1000, name: "Ada Lovelace", id: "17" },
  { routingNumber: "011401533", accountNumber: "9876543210", accountType: "savings", amountCents: 250_075, name: "Grace Hopper", id: "18" },
  { routingNumber: "091000019", accountNumber: "55", accountType: "checking", amountCents: 1, name: "Zoë Ångström", id: "19" },
];

/** Reads a NACHA file back field by field (1-based, inclusive positions, as the format's tables give them). */
function parse(text: string) {
  const lines = text.split("\n");
  expect(lines.pop()).toBe("");
  const field = (line: string, from: number, to: number) => line.slice(from - 1, to);
  const byType = (t: string) => lines.filter((l) => l[0] === t && l !== "9".repeat(94));
  const [header] = byType("1");
  const [batchHeader] = byType("5");
  const entries = byType("6").map((l) => ({
    code: field(l, 2, 3),
    rdfi: field(l, 4, 11),
    checkDigit: field(l, 12, 12),
    account: field(l, 13, 29).trimEnd(),
    amount: Number(field(l, 30, 39)),
    id: field(l, 40, 54).trimEnd(),
    name: field(l, 55, 76).trimEnd(),
    addenda: field(l, 79, 79),
    trace: field(l, 80, 94),
  }));
  const [batchControl] = byType("8");
  const fileControl = lines.find((l) => l[0] === "9" && l !== "9".repeat(94))!;
  return {
    lines,
    header: { destination: field(header!, 4, 13), recordSize: field(header!, 35, 37), blocking: field(header!, 38, 39) },
    batchHeader: {
      serviceClass: field(batchHeader!, 2, 4),
      sec: field(batchHeader!, 51, 53),
      odfi: field(batchHeader!, 80, 87),
      batch: field(batchHeader!, 88, 94),
    },
    entries,
    batchControl: {
      serviceClass: field(batchControl!, 2, 4),
      count: Number(field(batchControl!, 5, 10)),
      hash: field(batchControl!, 11, 20),
      debit: Number(field(batchControl!, 21, 32)),
      credit: Number(field(batchControl!, 33, 44)),
      batch: field(batchControl!, 88, 94),
    },
    fileControl: {
      batches: Number(field(fileControl, 2, 7)),
      blocks: Number(field(fileControl, 8, 13)),
      count: Number(field(fileControl, 14, 21)),
      hash: field(fileControl, 22, 31),
      debit: Number(field(fileControl, 32, 43)),
      credit: Number(field(fileControl, 44, 55)),
    },
  };
}

const build = (c: AchCredit[] = credits) =>
  buildAchFile({ originator, credits: c, createdAt: new Date(Date.UTC(2026, 10, 23, 14, 5)), fileIdModifier: "A", batchNumber: 7 });

describe("the ACH file of a payout batch", () => {
  it("is 94-character records blocked to a multiple of 10 lines, padded with 9s", () => {
    const file = parse(build());
    expect(file.lines).toHaveLength(10);
    for (const line of file.lines) expect(line).toHaveLength(94);
    expect(file.lines.slice(7)).toEqual(Array(3).fill("9".repeat(94)));
    expect(file.header).toEqual({ destination: " 091000019", recordSize: "094", blocking: "10" });
  });

  it("holds one PPD batch of credits only, each to its account with its amount and a trace number", () => {
    const file = parse(build());
    expect(file.batchHeader).toEqual({ serviceClass: "220", sec: "PPD", odfi: "09100001", batch: "0000007" });
    expect(file.entries).toEqual([
      {
        code: "22",
        rdfi: "02100002",
        checkDigit: "1",
        account: "000123456789",
        amount: 1000,
        id: "17",
        name: "ADA LOVELACE",
        addenda: "0",
        trace: "091000010000001",
      },
      {
        code: "32",
        rdfi: "01140153",
        checkDigit: "3",
        account: "9876543210",
        amount: 250_075,
        id: "18",
        name: "GRACE HOPPER",
        addenda: "0",
        trace: "091000010000002",
      },
      {
        code: "22",
        rdfi: "09100001",
        checkDigit: "9",
        account: "55",
        amount: 1,
        id: "19",
        name: "ZOE ANGSTROM",
        addenda: "0",
        trace: "091000010000003",
      },
    ]);
  });

  it("closes the batch and the file with matching counts, entry hash and totals", () => {
    const file = parse(build());
    const hash = String(2100002 + 1140153 + 9100001).padStart(10, "0");
    expect(file.batchControl).toEqual({ serviceClass: "220", count: 3, hash, debit: 0, credit: 251_076, batch: "0000007" });
    expect(file.fileControl).toEqual({ batches: 1, blocks: 1, count: 3, hash, debit: 0, credit: 251_076 });
  });

  it("counts a second block once the records pass ten, the file control record included", () => {
    // 7 entries: 10 records before the file control, so the file control itself opens block 2.
    const many = Array.from({ length: 7 }, (_, i) => ({ ...credits[0]!, id: String(100 + i) }));
    const file = parse(build(many));
    expect(file.lines).toHaveLength(20);
    expect(file.fileControl.blocks).toBe(2);
    expect(file.fileControl.count).toBe(7);
  });

  it("keeps only the last 10 digits of a large entry hash", () => {
    expect(entryHash(Array(2000).fill("999999999"))).toBe(String(99_999_999 * 2000).slice(-10));
  });

  it("refuses what a bank would reject rather than write it", () => {
    expect(() => build([])).toThrow(/at least one credit/);
    expect(() => build([{ ...credits[0]!, routingNumber: "12345" }])).toThrow(/routing number/);
    expect(() => build([{ ...credits[0]!, amountCents: 0 }])).toThrow(/positive cents/);
    expect(() => build([{ ...credits[0]!, accountNumber: "1".repeat(18) }])).toThrow(/account number/);
  });
});
