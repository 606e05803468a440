import { describe, expect, it } from "vitest";
import { LOGIN_MAX_DELAY_MS } from "../spec";
import { accountDelayMs, describeWait, loginDelayMs } from "./login-lockout";

describe("loginDelayMs", () => {
  it("costs nothing for the first four failures, then 1 s doubling per failure", () => {
    expect([1, 2, 3, 4].map(loginDelayMs)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9].map(loginDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it("stops growing at 15 minutes", () => {
    expect(loginDelayMs(14)).toBe(512_000);
    expect(loginDelayMs(15)).toBe(LOGIN_MAX_DELAY_MS);
    expect(loginDelayMs(1_000)).toBe(LOGIN_MAX_DELAY_MS);
  });
});

describe("accountDelayMs", () => {
  it("costs nothing within the account's budget of 20, then 2 s doubling, bounded like the per-address wait", () => {
    expect([1, 10, 20].map(accountDelayMs)).toEqual([0, 0, 0]);
    expect([21, 22, 23].map(accountDelayMs)).toEqual([2_000, 4_000, 8_000]);
    expect(accountDelayMs(29)).toBe(512_000);
    expect(accountDelayMs(30)).toBe(LOGIN_MAX_DELAY_MS);
    expect(accountDelayMs(10_000)).toBe(LOGIN_MAX_DELAY_MS);
  });
});

describe("describeWait", () => {
  it("rounds up to whole seconds, then to whole minutes", () => {
    expect(describeWait(1)).toBe("1 second");
    expect(describeWait(1_000)).toBe("1 second");
    expect(describeWait(1_001)).toBe("2 seconds");
    expect(describeWait(59_000)).toBe("59 seconds");
    expect(describeWait(60_000)).toBe("1 minute");
    expect(describeWait(61_000)).toBe("2 minutes");
    expect(describeWait(LOGIN_MAX_DELAY_MS)).toBe("15 minutes");
  });
});
