import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

describe("canonicalJson", () => {
  it("is the same text whatever order the fields were written in, at every depth", () => {
    const a = { amount: 2500, bankAccount: { routingNumber: "021000021", accountNumber: "0001" }, withdrawalMethod: "bank_account" };
    const b = { withdrawalMethod: "bank_account", bankAccount: { accountNumber: "0001", routingNumber: "021000021" }, amount: 2500 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe(
      '{"amount":2500,"bankAccount":{"accountNumber":"0001","routingNumber":"021000021"},"withdrawalMethod":"bank_account"}',
    );
  });

  it("leaves undefined fields out, keeps nulls, and keeps array order", () => {
    expect(canonicalJson({ b: undefined, a: null, c: [3, { y: 1, x: 2 }, 1] })).toBe('{"a":null,"c":[3,{"x":2,"y":1},1]}');
  });

  it("tells different values apart", () => {
    expect(canonicalJson({ amount: 2500 })).not.toBe(canonicalJson({ amount: 2501 }));
    expect(canonicalJson({ amount: "2500" })).not.toBe(canonicalJson({ amount: 2500 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
