import { describe, expect, it } from "vitest";
import { base32, creatorMayCancel, customMinLevel, invitePath, mayCreateCustom, normalizeInviteCode } from "./custom-tournaments";

describe("custom tournaments", () => {
  it("are for Elite players, level 10 and up", () => {
    expect(mayCreateCustom(9)).toBe(false);
    expect(mayCreateCustom(10)).toBe(true);
    expect(mayCreateCustom(42)).toBe(true);
  });

  it("ask the level of the fee tier their entry fee is", () => {
    expect(customMinLevel(0)).toBe(1);
    expect(customMinLevel(500)).toBe(1);
    expect(customMinLevel(1000)).toBe(3);
    expect(customMinLevel(2000)).toBe(5);
    expect(customMinLevel(5000)).toBe(10);
  });

  it("write 16 bytes as 26 base32 letters (RFC 4648 vectors)", () => {
    const enc = (s: string) => base32(new TextEncoder().encode(s));
    expect(enc("f")).toBe("my");
    expect(enc("fooba")).toBe("mzxw6ytb");
    expect(enc("foobar")).toBe("mzxw6ytboi");
    expect(base32(new Uint8Array(16).fill(255))).toBe("7".repeat(25) + "4");
  });

  it("read a code from a pasted link or a typed code, and nothing else", () => {
    const code = "abcdefghijklmnopqrstuvwxyz";
    expect(normalizeInviteCode(code)).toBe(code);
    expect(normalizeInviteCode(`https://example.com${invitePath(code)}`)).toBe(code);
    expect(normalizeInviteCode(` ABCDE-FGHIJ KLMNOPQRSTUVWXYZ `)).toBe(code);
    expect(normalizeInviteCode("abc")).toBeNull();
    expect(normalizeInviteCode("abcdefghijklmnopqrstuvwxy1")).toBeNull();
  });

  it("may be cancelled by their creator only before anyone joined", () => {
    expect(creatorMayCancel({ status: "upcoming", currentParticipants: 0 })).toBe(true);
    expect(creatorMayCancel({ status: "upcoming", currentParticipants: 1 })).toBe(false);
    expect(creatorMayCancel({ status: "live", currentParticipants: 0 })).toBe(false);
  });
});
