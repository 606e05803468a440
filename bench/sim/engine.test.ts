import { describe, expect, it } from "vitest";
import { EventQueue, Simulation } from "./engine";
import { Cpu } from "./resources";
import { logNormal, seeded } from "./random";

describe("event queue", () => {
  it("pops events in time order whatever order they were pushed in, past its first capacity", () => {
    const q = new EventQueue();
    const r = seeded(1);
    const times = Array.from({ length: 5000 }, () => Math.floor(r() * 1000));
    for (const t of times) q.push(t, () => undefined, t);
    const popped: number[] = [];
    while (q.size > 0) popped.push(q.pop()!.time);
    expect(popped).toEqual([...times].sort((a, b) => a - b));
    expect(q.pop()).toBeUndefined();
  });

  it("runs events at the same time in the order they were scheduled", () => {
    const sim = new Simulation();
    const order: number[] = [];
    for (let i = 0; i < 50; i++) sim.at(i % 2 === 0 ? 10 : 5, (x) => order.push(x), i);
    sim.run();
    const odd = Array.from({ length: 25 }, (_, i) => 2 * i + 1);
    const even = Array.from({ length: 25 }, (_, i) => 2 * i);
    expect(order).toEqual([...odd, ...even]);
  });
});

describe("simulation", () => {
  it("advances the clock to each event, and handlers schedule more relative to it", () => {
    const sim = new Simulation();
    const seen: [number, number][] = [];
    sim.at(100, () => {
      seen.push([sim.now, 1]);
      sim.after(50, () => seen.push([sim.now, 2]));
      sim.after(0, () => seen.push([sim.now, 3]));
    });
    expect(sim.run()).toBe(150);
    expect(seen).toEqual([
      [100, 1],
      [100, 3],
      [150, 2],
    ]);
    expect(sim.processed).toBe(3);
  });

  it("refuses an event before the clock", () => {
    const sim = new Simulation();
    sim.at(10, () => sim.at(5, () => undefined));
    expect(() => sim.run()).toThrow(/before the clock/);
  });

  it("stops at a time and carries on from there", () => {
    const sim = new Simulation();
    const seen: number[] = [];
    for (const t of [10, 20, 30]) sim.at(t, () => seen.push(t));
    expect(sim.run(25)).toBe(25);
    expect(seen).toEqual([10, 20]);
    expect(sim.pending).toBe(1);
    sim.run();
    expect(seen).toEqual([10, 20, 30]);
  });
});

describe("a single-threaded cpu", () => {
  it("runs jobs one at a time in arrival order and counts its busy time per second", () => {
    const sim = new Simulation();
    const cpu = new Cpu(sim);
    const ends: number[] = [];
    sim.at(900, () => {
      cpu.run(200, (end) => ends.push(end));
      const second = cpu.run(300, (end) => ends.push(end));
      expect(second.start).toBe(1100);
    });
    // Arrives after both are done: starts at once.
    sim.at(2000, () => expect(cpu.run(10).start).toBe(2000));
    sim.run();
    expect(ends).toEqual([1100, 1400]);
    expect(cpu.busyMs).toBe(510);
    // 900-1000 in the first second, 1000-1400 in the second, 2000-2010 in the third.
    expect(cpu.busy.max(0, 1)).toBeCloseTo(100);
    expect(cpu.busy.max(1, 2)).toBeCloseTo(400);
    expect(cpu.busy.sum(0, 3)).toBeCloseTo(510);
  });
});

describe("seeded randomness", () => {
  it("repeats itself for a seed and differs between seeds", () => {
    const a = seeded(7);
    const b = seeded(7);
    const c = seeded(8);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("draws a log-normal around its median", () => {
    const r = seeded(3);
    const d = logNormal(40, 0.7);
    const v = Array.from({ length: 20_000 }, () => d.draw(r)).sort((x, y) => x - y);
    expect(v[10_000]!).toBeGreaterThan(38);
    expect(v[10_000]!).toBeLessThan(42);
    // p99 = median * e^(2.326 * sigma), about 204 ms.
    expect(v[19_800]!).toBeGreaterThan(185);
    expect(v[19_800]!).toBeLessThan(225);
  });
});
