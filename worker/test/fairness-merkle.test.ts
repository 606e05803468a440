// The per-question commitment (docs/decisions/015-per-question-commitment.md): a self-paced pool
// reveals only the questions that were drawn, each with its Merkle proof against the root
// published before the start; the candidates nobody was asked stay secret. A live show reveals
// all ten the same way, and a room committed under v1 before the change still opens its flat hash.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import {
  checkTreeReveal,
  drawCandidate,
  fairnessCommitment,
  leafSalt,
  questionLeafHash,
  type TreeReveal,
} from "../../common/domain/fairness";
import { verifyMerkleProof } from "../../common/domain/merkle";
import type { FairnessReport } from "../../common/api/fair-play";
import type { TournamentRoom } from "../durable/tournament-room";
import { RoomStore } from "../durable/room/storage";
import { call } from "./helpers";
import {
  answer,
  complete,
  correctOf,
  join,
  makeCategory,
  makeDrawnTournament,
  makePlayer,
  makeTournament,
  next,
  one,
  room,
  roomSql,
  startNow,
  wrongOf,
  type Player,
  type TournamentFixture,
  stepShow,
} from "./tournament-fixtures";

type MerkleReport = Extract<FairnessReport, { scheme: "merkle-v2" }>;

/** The room's own secret salt (never in any answer of the API). */
const secretSalt = (tournamentId: number) =>
  runInDurableObject(
    room(tournamentId),
    (_i: TournamentRoom, state) => state.storage.sql.exec<{ salt: string }>("SELECT salt FROM meta").one().salt,
  );

/** The room's record of which committed questions went out to anyone (the storage helper settlement can use). */
const issuedIds = (tournamentId: number) =>
  runInDurableObject(room(tournamentId), (_i: TournamentRoom, state) => new RoomStore(state.storage).issuedQuestionIds());

const published = async (tournamentId: number) => (await call(`/api/tournaments/${tournamentId}`)).body.fairnessCommitment as string;

async function report(tournamentId: number): Promise<FairnessReport> {
  const res = await call<FairnessReport>(`/api/tournaments/${tournamentId}/fairness`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

function asMerkle(r: FairnessReport): MerkleReport {
  expect(r.scheme).toBe("merkle-v2");
  return r as MerkleReport;
}

/** Every key anywhere in a value (the report must carry nothing beyond its documented fields). */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

/** Plays all ten questions (right on even slots), returning the ids the player was asked in slot order. */
async function playAll(p: Player, t: TournamentFixture): Promise<number[]> {
  const asked: number[] = [];
  for (let slot = 0; slot < 10; slot++) {
    const q = await next(p, t.id);
    expect(q.status, q.text).toBe(200);
    asked.push(q.body.id);
    const res = await answer(p, t.id, q.body.id, slot % 2 === 0 ? correctOf(t, q.body.id) : wrongOf(t, q.body.id));
    expect(res.status, res.text).toBe(200);
  }
  expect((await complete(p, t.id)).status).toBe(200);
  return asked;
}

describe("a self-paced pool's reveal", () => {
  it("shows only the drawn questions, each proven against the root published before the start; the undrawn stay secret", async () => {
    const t = await makeDrawnTournament(3, { startTime: Date.now() + 3_600_000 });
    const players = [await makePlayer(), await makePlayer()];
    for (const p of players) expect((await join(p, t.id)).status).toBe(200);
    const before = await published(t.id);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const salt = await secretSalt(t.id);

    await startNow(t.id);
    const asked = new Map<number, number[]>();
    for (const p of players) asked.set(p.id, await playAll(p, t));
    const drawnIds = new Set([...asked.values()].flat());
    const drawnOrders = t.pool.flatMap((id, order) => (drawnIds.has(id) ? [order] : []));
    const undrawn = t.questions.filter((q) => !drawnIds.has(q.id));
    // Two players over ten slots of three: some candidates were asked, and some never were.
    expect(drawnOrders.length).toBeGreaterThanOrEqual(10);
    expect(undrawn.length).toBeGreaterThan(0);

    const r = asMerkle(await report(t.id));
    expect(r).toMatchObject({ tournamentId: t.id, commitment: before, leafCount: 30, drawWidth: 3 });
    expect(r.questions.map((q) => q.order)).toEqual(drawnOrders);
    for (const q of r.questions) {
      const fixture = t.questions[q.order]!;
      expect(q).toMatchObject({
        questionId: fixture.id,
        question: fixture.question,
        correctAnswer: fixture.correct,
        slot: Math.floor(q.order / 3),
      });
      expect(q.timesIssued).toBe([...asked.values()].filter((ids) => ids.includes(q.questionId)).length);
      expect(q.leafSalt).toBe(leafSalt(salt, q.order));
      // Each proof, on its own, leads from the recomputed leaf to the root published before the start.
      expect(verifyMerkleProof(questionLeafHash(r, q), q.order, r.leafCount, q.proof, before)).toBe(true);
    }
    expect(checkTreeReveal({ ...r, commitment: before })).toMatchObject({ verified: drawnOrders.length, ok: true });

    // Nothing of an undrawn candidate is in the report: not its id, text, answer or leaf salt; nor the room's salt.
    const text = JSON.stringify(r);
    expect([...keysOf(r)].sort()).toEqual(
      [
        "scheme",
        "tournamentId",
        "commitment",
        "drawKey",
        "drawWidth",
        "leafCount",
        "questions",
        "order",
        "questionId",
        "question",
        "correctAnswer",
        "slot",
        "issuedAt",
        "closedAt",
        "timesIssued",
        "leafSalt",
        "proof",
      ].sort(),
    );
    expect(r.questions.every((q) => drawnIds.has(q.questionId))).toBe(true);
    for (const q of undrawn) {
      const order = t.pool.indexOf(q.id);
      expect(text).not.toContain(JSON.stringify(q.correct));
      expect(text).not.toContain(JSON.stringify(q.question));
      expect(text).not.toContain(leafSalt(salt, order));
    }
    expect(text).not.toContain(salt);

    // The revealed draw key says which candidate each player was asked in each slot.
    for (const p of players) {
      expect(asked.get(p.id)).toEqual(Array.from({ length: 10 }, (_, slot) => t.pool[slot * 3 + drawCandidate(r.drawKey, p.id, slot, 3)]));
    }

    // The room's own split, for settlement's burn-or-release: asked (in order) and never asked.
    expect(await issuedIds(t.id)).toEqual({
      issued: drawnOrders.map((o) => t.pool[o]),
      unissued: undrawn.map((q) => q.id),
    });

    // Tampering is caught: a changed answer, a question moved to another place, a wrong sibling,
    // an undrawn question slipped in with its true answer but a made-up salt, another draw key.
    const fails = (tampered: TreeReveal) => expect(checkTreeReveal({ ...tampered, commitment: before }).ok).toBe(false);
    const edit = (i: number, change: Partial<MerkleReport["questions"][number]>): MerkleReport => ({
      ...r,
      questions: r.questions.map((q, k) => (k === i ? { ...q, ...change } : q)),
    });
    fails(edit(0, { correctAnswer: `${r.questions[0]!.correctAnswer} ` }));
    fails(edit(0, { order: r.questions[0]!.order + 1 }));
    fails(edit(1, { proof: [r.questions[0]!.proof[0]!, ...r.questions[1]!.proof.slice(1)] }));
    const hidden = undrawn[0]!;
    const hiddenOrder = t.pool.indexOf(hidden.id);
    fails({
      ...r,
      questions: [
        ...r.questions,
        {
          order: hiddenOrder,
          questionId: hidden.id,
          correctAnswer: hidden.correct,
          leafSalt: "00".repeat(32),
          proof: r.questions[0]!.proof,
        },
      ],
    });
    fails({ ...r, drawKey: "11".repeat(32) });
  });

  it("a room committed under v1 before per-question commitments still opens and verifies its flat hash", async () => {
    const t = await makeDrawnTournament(3, { startTime: Date.now() + 3_600_000 });
    const p = await makePlayer();
    expect((await join(p, t.id)).status).toBe(200);
    // Rewind the room to what a v1 room holds: a flat hash over the pool under its salt, published in D1.
    const salt = await secretSalt(t.id);
    const flat = await fairnessCommitment(
      t.id,
      salt,
      t.questions.map((q) => ({ questionId: q.id, correctAnswer: q.correct })),
    );
    await env.DB.prepare("UPDATE tournaments SET fairness_commitment = ? WHERE id = ?").bind(flat, t.id).run();
    await roomSql(t.id, "UPDATE meta SET commitment = ?, commitment_version = 1 WHERE id = 1", flat);
    expect(await published(t.id)).toBe(flat);

    await startNow(t.id);
    const asked = await playAll(p, t);
    const r = await report(t.id);
    expect(r.scheme).toBe("flat-v1");
    if (r.scheme !== "flat-v1") return;
    expect(r.salt).toBe(salt);
    expect(r.questions.map((q) => q.questionId)).toEqual(t.pool);
    expect(await fairnessCommitment(r.tournamentId, r.salt, r.questions)).toBe(flat);
    // A v1 room keeps drawing from the salt itself.
    expect(asked).toEqual(Array.from({ length: 10 }, (_, slot) => t.pool[slot * 3 + drawCandidate(salt, p.id, slot, 3)]));
  });
});

describe("a live show's reveal", () => {
  it("reveals all ten questions, everyone's, each proven against the root published before the start", async () => {
    const t = await makeTournament(await makeCategory(), { format: "live_show" });
    const p = await makePlayer();
    expect((await join(p, t.id)).status).toBe(200);
    const before = await published(t.id);
    await startNow(t.id);
    const first = await next(p, t.id);
    expect((await answer(p, t.id, first.body.id, correctOf(t, first.body.id))).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      await stepShow(t, LIVE_SHOW_WINDOW_MS);
      await stepShow(t, REVEAL_PAUSE_MS);
    }
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("completed");

    const r = asMerkle(await report(t.id));
    expect(r).toMatchObject({ commitment: before, leafCount: 10, drawWidth: 1 });
    expect(r.questions.map((q) => [q.order, q.questionId, q.correctAnswer])).toEqual(
      t.questions.map((q, order) => [order, q.id, q.correct]),
    );
    expect(r.questions.every((q) => q.timesIssued === 1)).toBe(true);
    expect(checkTreeReveal({ ...r, commitment: before })).toMatchObject({ verified: 10, ok: true });
    expect(await issuedIds(t.id)).toEqual({ issued: t.questions.map((q) => q.id), unissued: [] });
    const tampered = { ...r, questions: r.questions.map((q, i) => (i === 9 ? { ...q, correctAnswer: "Another" } : q)) };
    expect(checkTreeReveal({ ...tampered, commitment: before })).toMatchObject({ verified: 9, ok: false });
  });
});
