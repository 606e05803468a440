import { describe, expect, it } from "vitest";
import { readAchFile } from "../test/nacha-reader";
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

const build = (c: AchCredit[] = credits) =>
  buildAchFile({ originator, credits: c, createdAt: new Date(Date.UTC(2026, 10, 23, 14, 5)), fileIdModifier: "A", batchNumber: 7 });

describe("the ACH file of a payout batch", () => {
  it("is 94-character records blocked to a multiple of 10 lines, padded with 9s", () => {
    const file = readAchFile(build());
    expect(file.lines).toHaveLength(10);
    for (const line of file.lines) expect(line).toHaveLength(94);
    expect(file.lines.slice(7)).toEqual(Array(3).fill("9".repeat(94)));
    expect(file.header).toEqual({ destination: " 091000019", origin: "1234567890", recordSize: "094", blocking: "10" });
  });

  it("holds one PPD batch of credits only, each to its account with its amount and a trace number", () => {
    const file = readAchFile(build());
    expect(file.batchHeader).toEqual({ serviceClass: "220", company: "TRIVIA ARENA", sec: "PPD", odfi: "09100001", batch: "0000007" });
    expect(file.entries).toEqual([
      {
        code: "22",
        rdfi: "02100002",
        checkDigit: "1",
        account: "000123456789",
        amountCents: 1000,
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
        amountCents: 250_075,
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
        amountCents: 1,
        id: "19",
        name: "ZOE ANGSTROM",
        addenda: "0",
        trace: "091000010000003",
      },
    ]);
  });

  it("closes the batch and the file with matching counts, entry hash and totals", () => {
    const file = readAchFile(build());
    const hash = String(2100002 + 1140153 + 9100001).padStart(10, "0");
    expect(file.batchControl).toEqual({ serviceClass: "220", entryCount: 3, hash, debitCents: 0, creditCents: 251_076, batch: "0000007" });
    expect(file.fileControl).toEqual({ batches: 1, blocks: 1, entryCount: 3, hash, debitCents: 0, creditCents: 251_076 });
  });

  it("counts a second block once the records pass ten, the file control record included", () => {
    // 7 entries: 10 records before the file control, so the file control itself opens block 2.
    const many = Array.from({ length: 7 }, (_, i) => ({ ...credits[0]!, id: String(100 + i) }));
    const file = readAchFile(build(many));
    expect(file.lines).toHaveLength(20);
    expect(file.fileControl.blocks).toBe(2);
    expect(file.fileControl.entryCount).toBe(7);
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
