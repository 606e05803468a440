import { describe, expect, it } from "vitest";
import { depositHoldHours, planWithdrawal, withdrawable, type HoldEvent } from "./withdrawable";

const H = 60 * 60 * 1000;
const HOLD = 72 * H;
const NOW = 1_000 * H;

const deposit = (ref: string, cents: number, hoursAgo: number, sandbox = false): HoldEvent => ({
  kind: "deposit",
  ref,
  cents,
  at: NOW - hoursAgo * H,
  sandbox,
});
const fee = (key: string, cents: number, hoursAgo: number): HoldEvent => ({ kind: "fee", key, cents, at: NOW - hoursAgo * H });
const feeRefund = (key: string, cents: number, hoursAgo: number): HoldEvent => ({ kind: "fee_refund", key, cents, at: NOW - hoursAgo * H });
const reversal = (ref: string, cents: number, hoursAgo: number): HoldEvent => ({ kind: "reversal", ref, cents, at: NOW - hoursAgo * H });

/** The hold alone (no card part): the bank part is the whole withdrawable amount. */
const run = (balanceCents: number, events: HoldEvent[], sandboxWithdrawable = true) => {
  const { cardRefundableCents, bankWithdrawableCents, prizeHeldCents, prizeReleaseAt, ...w } = withdrawable({
    balanceCents,
    events,
    now: NOW,
    holdMs: HOLD,
    sandboxWithdrawable,
  });
  expect([cardRefundableCents, prizeHeldCents, prizeReleaseAt]).toEqual([0, 0, null]);
  expect(bankWithdrawableCents).toBe(w.withdrawableCents);
  return w;
};

describe("withdrawable", () => {
  it("nothing held: the whole balance", () => {
    expect(run(5000, [])).toEqual({ withdrawableCents: 5000, heldCents: 0, recentHeldCents: 0, sandboxHeldCents: 0, nextReleaseAt: null });
  });

  it("an old deposit is free; a young one is held until 72 h after it was made", () => {
    expect(run(3000, [deposit("pi_old", 1000, 100), deposit("pi_new", 2000, 10)])).toEqual({
      withdrawableCents: 1000,
      heldCents: 2000,
      recentHeldCents: 2000,
      sandboxHeldCents: 0,
      nextReleaseAt: NOW + 62 * H,
    });
  });

  it("a deposit exactly 72 h old is free", () => {
    expect(run(1000, [deposit("pi_a", 1000, 72)]).withdrawableCents).toBe(1000);
  });

  it("entry fees spend held deposits, newest first, so the older held part frees first", () => {
    const r = run(2500, [deposit("pi_a", 1000, 50), deposit("pi_b", 2000, 20), fee("1:7", 500, 10)]);
    // pi_b (newest) paid the fee: 1500 of it and all of pi_a are still held.
    expect(r).toMatchObject({ withdrawableCents: 0, heldCents: 2500, nextReleaseAt: NOW + 22 * H });
    const spentBoth = run(500, [deposit("pi_a", 1000, 50), deposit("pi_b", 2000, 20), fee("1:7", 2500, 10)]);
    expect(spentBoth).toMatchObject({ withdrawableCents: 0, heldCents: 500, nextReleaseAt: NOW + 22 * H });
  });

  it("a fee paid before a deposit does not spend it", () => {
    expect(run(1000, [fee("1:7", 500, 30), deposit("pi_a", 1000, 20)])).toMatchObject({ withdrawableCents: 0, heldCents: 1000 });
  });

  it("fees beyond the held deposits come out of free money, which stays free", () => {
    // 5000 free + 1000 held; a 3000 fee takes the 1000 held first, then 2000 of the free money.
    expect(run(3000, [deposit("pi_a", 1000, 5), fee("1:7", 3000, 1)])).toMatchObject({ withdrawableCents: 3000, heldCents: 0 });
  });

  it("a refunded entry fee goes back on hold where it came from", () => {
    const r = run(1000, [deposit("pi_a", 1000, 5), fee("3:7", 1000, 4), feeRefund("3:7", 1000, 1)]);
    expect(r).toMatchObject({ withdrawableCents: 0, heldCents: 1000, nextReleaseAt: NOW + 67 * H });
  });

  it("a card refund of a held deposit takes it off hold, not the free money", () => {
    expect(run(1000, [deposit("pi_old", 1000, 100), deposit("pi_a", 2000, 5), reversal("pi_a", 2000, 1)])).toMatchObject({
      withdrawableCents: 1000,
      heldCents: 0,
    });
  });

  it("never below zero, and never more held than the balance", () => {
    expect(run(300, [deposit("pi_a", 1000, 5)])).toMatchObject({ withdrawableCents: 0, heldCents: 300 });
  });

  it("sandbox deposits are held for good off the sandbox hosts, whatever their age", () => {
    const events = [deposit("pi_sbx_1", 1000, 500, true), deposit("pi_a", 500, 100)];
    expect(run(1500, events, false)).toEqual({
      withdrawableCents: 500,
      heldCents: 1000,
      recentHeldCents: 0,
      sandboxHeldCents: 1000,
      nextReleaseAt: null,
    });
    expect(run(1500, events, true).withdrawableCents).toBe(1500);
  });

  it("the same instant: a deposit and a fee at once are taken in the order given", () => {
    const at = NOW - H;
    expect(
      run(500, [
        { kind: "deposit", ref: "pi_a", cents: 1000, at, sandbox: false },
        { kind: "fee", key: "1:1", cents: 500, at },
      ]),
    ).toMatchObject({ withdrawableCents: 0, heldCents: 500 });
  });
});

describe("depositHoldHours", () => {
  it.each([
    [undefined, 72],
    ["", 72],
    ["72", 72],
    ["0", 0],
    ["24", 24],
    ["1.5", 1.5],
    ["-1", 72],
    ["soon", 72],
  ])("%s -> %s", (raw, hours) => {
    expect(depositHoldHours(raw)).toBe(hours);
  });
});

describe("closed loop: the card part", () => {
  const input = (balanceCents: number, events: HoldEvent[], refundable: [string, number, number][]) => ({
    balanceCents,
    events,
    now: NOW,
    holdMs: HOLD,
    sandboxWithdrawable: true,
    cardRefundable: refundable.map(([ref, cents, hoursAgo]) => ({ ref, cents, at: NOW - hoursAgo * H, cardLast4: "4242" })),
  });

  it("a young deposit can go back to its card at once; the hold applies only to the bank part", () => {
    const i = input(5000, [deposit("pi_new", 3000, 1)], [["pi_new", 3000, 1]]);
    expect(withdrawable(i)).toMatchObject({
      withdrawableCents: 5000,
      cardRefundableCents: 3000,
      bankWithdrawableCents: 2000,
      heldCents: 0,
    });
    expect(planWithdrawal(i, 5000)).toMatchObject({ cardCents: 3000, bankCents: 2000, keepCents: 0 });
    expect(planWithdrawal(i, 1000)).toMatchObject({ cardCents: 1000, bankCents: 0 });
    expect(planWithdrawal(i, 5001)).toBeNull();
  });

  it("newest deposit first; what a partial card part leaves of a young deposit stays held for the bank", () => {
    const i = input(
      6000,
      [deposit("pi_a", 2000, 200), deposit("pi_b", 3000, 5)],
      [
        ["pi_a", 2000, 200],
        ["pi_b", 3000, 5],
      ],
    );
    const plan = planWithdrawal(i, 1000)!;
    expect(plan.card.map((p) => [p.ref, p.cents])).toEqual([["pi_b", 1000]]);
    // $2,000 of pi_b is still young: it must stay in the balance after this withdrawal.
    expect(plan.keepCents).toBe(2000);
    expect(planWithdrawal(i, 6000)!.card.map((p) => [p.ref, p.cents])).toEqual([
      ["pi_b", 3000],
      ["pi_a", 2000],
    ]);
  });

  it("never more than the balance goes back to cards", () => {
    expect(withdrawable(input(1000, [], [["pi_a", 3000, 10]]))).toMatchObject({ withdrawableCents: 1000, cardRefundableCents: 1000 });
  });
});

describe("prizes paid from fees still on hold", () => {
  it("are held until their release; the balance's other money is not", () => {
    const prize: HoldEvent = { kind: "prize", cents: 3000, at: NOW - H, releaseAt: NOW + 50 * H };
    const w = withdrawable({ balanceCents: 5000, events: [prize], now: NOW, holdMs: HOLD, sandboxWithdrawable: true });
    expect(w).toMatchObject({
      withdrawableCents: 2000,
      heldCents: 3000,
      prizeHeldCents: 3000,
      prizeReleaseAt: NOW + 50 * H,
      nextReleaseAt: NOW + 50 * H,
    });
    const freed = withdrawable({
      balanceCents: 5000,
      events: [{ ...prize, releaseAt: NOW }],
      now: NOW,
      holdMs: HOLD,
      sandboxWithdrawable: true,
    });
    expect(freed).toMatchObject({ withdrawableCents: 5000, prizeHeldCents: 0, prizeReleaseAt: null });
  });
});
