import { describe, expect, it } from "vitest";
import { isValidRoutingNumber, luhnValid } from "./payment-checks";

describe("luhnValid", () => {
  it.each(["4242424242424242", "4000000000000002", "5555555555554444", "378282246310005"])("accepts %s", (n) => {
    expect(luhnValid(n)).toBe(true);
  });
  it.each(["4242424242424241", "1234", "42424242424242424242", "4242 4242 4242 4242", ""])("refuses %j", (n) => {
    expect(luhnValid(n)).toBe(false);
  });
});

describe("isValidRoutingNumber", () => {
  // Published routing numbers of real banks.
  it.each(["021000021", "011000015", "121000358", "026009593", "322271627"])("accepts %s", (n) => {
    expect(isValidRoutingNumber(n)).toBe(true);
  });
  it.each([
    ["021000022", "checksum off by one"],
    ["000000000", "all zeros"],
    ["02100002", "8 digits"],
    ["0210000210", "10 digits"],
    ["02100002a", "a letter"],
    ["500000005", "prefix 50 is not assigned"],
  ])("refuses %s (%s)", (n) => {
    expect(isValidRoutingNumber(n)).toBe(false);
  });
});
