import { describe, expect, it } from "vitest";
import {
  featureRefusal,
  isReminderDue,
  REMINDER_KINDS,
  registrationOpen,
  registrationOpensFor,
  registrationOpensForAll,
  registrationTimeRefusal,
  type ReminderKind,
} from "./featured";

const H = 60 * 60 * 1000;
const D = 24 * H;
const M = 60 * 1000;

describe("featuring", () => {
  it("needs a week's notice", () => {
    expect(featureRefusal(7 * D, 0)).toBeNull();
    expect(featureRefusal(7 * D - 1, 0)).toBe("too_soon");
  });

  it("takes a registration time before the start whose priority day starts after now", () => {
    expect(registrationTimeRefusal(10 * D, 10 * D, 0)).toBe("after_start");
    expect(registrationTimeRefusal(D - 1, 10 * D, 0)).toBe("too_early");
    expect(registrationTimeRefusal(D, 10 * D, 0)).toBeNull();
  });
});

describe("registration for a featured event", () => {
  const start = 10 * D;
  const featured = { featuredAt: 0, registrationOpensAt: null, startTime: start };

  it("opens for everyone 72 h before the start by default, for level 6+ a day earlier", () => {
    expect(registrationOpensForAll(featured)).toBe(start - 72 * H);
    expect(registrationOpensFor(featured, 5)).toBe(start - 72 * H);
    expect(registrationOpensFor(featured, 6)).toBe(start - 96 * H);
    expect(registrationOpensFor(featured, 12)).toBe(start - 96 * H);
  });

  it("follows the operator's time", () => {
    const t = { ...featured, registrationOpensAt: start - 5 * D };
    expect(registrationOpensFor(t, 1)).toBe(start - 5 * D);
    expect(registrationOpensFor(t, 6)).toBe(start - 6 * D);
  });

  it("lets a level-6 player in 24 h early, a level-5 one only at the open, everyone after", () => {
    const opens = start - 72 * H;
    expect(registrationOpen(featured, 6, opens - 24 * H - 1)).toBe(false);
    expect(registrationOpen(featured, 6, opens - 24 * H)).toBe(true);
    expect(registrationOpen(featured, 5, opens - 1)).toBe(false);
    expect(registrationOpen(featured, 5, opens)).toBe(true);
    expect(registrationOpen(featured, 1, opens + H)).toBe(true);
  });

  it("never waits for a tournament that is not featured", () => {
    const plain = { featuredAt: null, registrationOpensAt: null, startTime: start };
    expect(registrationOpensFor(plain, 1)).toBeNull();
    expect(registrationOpen(plain, 1, 0)).toBe(true);
  });
});

describe("reminder windows", () => {
  it("sends the day reminder from 24 h before until the 10-minute one takes over, that one until the start", () => {
    const start = 100 * D;
    expect(isReminderDue("day", start, start - 24 * H - 1)).toBe(false);
    expect(isReminderDue("day", start, start - 24 * H)).toBe(true);
    expect(isReminderDue("day", start, start - 11 * M)).toBe(true);
    expect(isReminderDue("day", start, start - 10 * M - 30_000)).toBe(false);
    expect(isReminderDue("soon", start, start - 10 * M - 30_001)).toBe(false);
    expect(isReminderDue("soon", start, start - 10 * M - 30_000)).toBe(true);
    expect(isReminderDue("soon", start, start - 1)).toBe(true);
    expect(isReminderDue("soon", start, start)).toBe(false);
    expect(isReminderDue("soon", start, start + M)).toBe(false);
  });

  it("a cron every 5 minutes sends each reminder exactly once, whatever the start's minute", () => {
    for (let offset = 0; offset < 5 * M; offset += 7_919) {
      const start = 30 * D + offset;
      const sent = new Map<ReminderKind, number[]>(REMINDER_KINDS.map((k) => [k, []]));
      // The cron fires on the 5-minute marks; a reminder once sent is marked and never sent again.
      for (let now = start - 2 * D; now < start + H; now += 5 * M) {
        for (const kind of REMINDER_KINDS) if (sent.get(kind)!.length === 0 && isReminderDue(kind, start, now)) sent.get(kind)!.push(now);
      }
      const [day] = sent.get("day")!;
      const [soon] = sent.get("soon")!;
      expect(start - day!).toBeLessThanOrEqual(24 * H);
      expect(start - day!).toBeGreaterThan(24 * H - 5 * M);
      expect(start - soon!).toBeLessThanOrEqual(10 * M + 30_000);
      expect(start - soon!).toBeGreaterThan(5 * M);
    }
  });
});
