// A sharded live show's merged views (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"): how everyone answered, merged over every play shard; the merge deadline that keeps a
// silent shard from holding the others' boards; the console's live fair-play flags from the shards.
// How the tests drive the show: ./shard-fixtures.ts.
import { describe, expect, it } from "vitest";
import { runDurableObjectAlarm } from "cloudflare:test";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { MERGE_DEADLINE_MS } from "../../common/domain/shards";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { correctOf, makePlayer, roomSql, runAlarm, socketOf, startNow, wrongOf, type TournamentFixture } from "./tournament-fixtures";
import { answerOn, closeNow, N, openNow, shard, shardedShow, shardSql } from "./shard-fixtures";

/** A whole show step is many alarm runs on three objects: more than the default 5 s on a busy machine. */
const TIMEOUT_MS = 60_000;

/** The options of a question in the bank's order, with a wrong one other than `wrongOf`'s. */
const otherWrong = (t: TournamentFixture, qid: number) => {
  const q = t.questions.find((x) => x.id === qid)!;
  return q.options.filter((o) => o !== correctOf(t, qid) && o !== wrongOf(t, qid))[0]!;
};

/** Counts per option of the given answers, every option listed. */
const countsOf = (options: string[], answers: string[]) =>
  options.map((option) => ({ option, count: answers.filter((a) => a === option).length })).sort((a, b) => a.option.localeCompare(b.option));
const sorted = (d: { option: string; count: number }[]) => [...d].sort((a, b) => a.option.localeCompare(b.option));

describe("a sharded live show's merged views", () => {
  it(
    "shows how everyone answered over every shard: the reveal first with the shard's own counts, then the merged ones",
    { timeout: TIMEOUT_MS },
    async () => {
      const show = await shardedShow(6);
      const { t, sockets } = show;
      const watcher = await socketOf(t, await makePlayer());
      await watcher.waitFor((f) => f.type === "status");
      await startNow(t.id);
      await openNow(t, 0);
      const q = (await sockets[0]!.waitFor((f) => f.type === "question", 3000)).question;
      // Players 0, 2, 4 are on shard 0, players 1, 3, 5 on shard 1.
      const answers = [correctOf(t, q.id), correctOf(t, q.id), wrongOf(t, q.id), otherWrong(t, q.id), correctOf(t, q.id)];
      for (const [i, a] of answers.entries()) await answerOn(sockets[i]!, `a${i}`, q.id, a);
      // Player 5 lets the time run out.
      await closeNow(t);

      const options = t.questions.find((x) => x.id === q.id)!.options;
      const everyone = countsOf(options, answers);
      for (const [i, s] of sockets.entries()) {
        const reveal = await s.waitFor((f) => f.type === "reveal" && f.index === 0, 3000);
        // The shard's own players only, marked partial...
        const mine = answers.filter((_, j) => j % N === i % N);
        expect(reveal.partial).toBe(true);
        expect(sorted(reveal.distribution)).toEqual(countsOf(options, mine));
        // ...then every player's counts, once every shard reported.
        const merged = await s.waitFor((f) => f.type === "distribution" && f.index === 0, 3000);
        expect(merged).toMatchObject({ questionId: q.id });
        expect(merged.partial).toBeUndefined();
        expect(sorted(merged.distribution)).toEqual(everyone);
      }
      // The coordinator reveals after the merge: its spectator gets every player's counts at once.
      const watched = await watcher.waitFor((f) => f.type === "reveal" && f.index === 0, 3000);
      expect(watched.partial).toBeUndefined();
      expect(sorted(watched.distribution)).toEqual(everyone);
      // A player reconnecting during the reveal gets the merged counts too.
      const again = await socketOf(t, show.ps[1]!);
      const synced = await again.waitFor((f) => f.type === "reveal" && f.index === 0, 3000);
      expect(synced.partial).toBeUndefined();
      expect(sorted(synced.distribution)).toEqual(everyone);
    },
  );

  it(
    "merges without a silent shard past the deadline, and its late report makes a newer, complete board",
    { timeout: TIMEOUT_MS },
    async () => {
      const show = await shardedShow(4);
      const { t, ps, sockets } = show;
      const watcher = await socketOf(t, await makePlayer());
      await watcher.waitFor((f) => f.type === "status");
      await startNow(t.id);
      await openNow(t, 0);
      const q = (await sockets[0]!.waitFor((f) => f.type === "question", 3000)).question;
      for (const [i, s] of sockets.entries()) await answerOn(s, `a${i}`, q.id, correctOf(t, q.id));

      // Shard 0 closes and reports; shard 1 says nothing (slow, or evicted with its alarm pending).
      const seen = { watcher: watcher.frames.length, player: sockets[0]!.frames.length };
      const since = Date.now() - LIVE_SHOW_WINDOW_MS;
      const back = "UPDATE questions SET opened_at = ? WHERE ord = 0";
      await shardSql(t, 0, back, since);
      await shardSql(t, 0, "UPDATE meta SET show_since = ? WHERE id = 1", since);
      await runDurableObjectAlarm(shard(t, 0));
      await sockets[0]!.waitFor((f) => f.type === "reveal" && f.index === 0, 3000);
      // Before the deadline nothing is merged: the board waits for shard 1.
      await runAlarm(t.id);
      const boards = (frames: any[]) => frames.filter((f) => f.type === "leaderboard" || f.type === "distribution");
      expect(boards(watcher.frames.slice(seen.watcher))).toEqual([]);
      expect(boards(sockets[0]!.frames.slice(seen.player))).toEqual([]);

      // The coordinator's clock passes the close and the merge deadline.
      const late = Date.now() - LIVE_SHOW_WINDOW_MS - MERGE_DEADLINE_MS - 1;
      await roomSql(t.id, back, late);
      await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1", late);
      await runAlarm(t.id);
      const shard0 = [ps[0]!.id, ps[2]!.id].sort();
      // The spectators' and the public board: shard 0's players, marked provisional.
      const provisional = await watcher.waitFor((f) => f.type === "leaderboard" && f.top.length === 2, 3000);
      expect(provisional.provisional).toBe(true);
      expect(provisional.top.map((r: { userId: number }) => r.userId).sort()).toEqual(shard0);
      const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body as { userId: number }[];
      expect(board.map((r) => r.userId).sort()).toEqual(shard0);
      // Shard 0's players get it, and the counts so far, still partial.
      const partial = await sockets[2]!.waitFor((f) => f.type === "distribution" && f.index === 0, 3000);
      expect(partial.partial).toBe(true);
      expect(partial.distribution.find((d: { option: string }) => d.option === correctOf(t, q.id)).count).toBe(2);
      await sockets[0]!.waitFor((f) => f.type === "leaderboard" && f.provisional === true && f.top.length === 2, 3000);
      // The alarm again changes nothing: no report came since.
      const frames = watcher.frames.length;
      await runAlarm(t.id).catch(() => undefined);
      expect(watcher.frames.slice(frames).filter((f) => f.type === "leaderboard")).toEqual([]);

      // Shard 1 reports at last: a newer board with every player, complete.
      await shardSql(t, 1, back, since);
      await shardSql(t, 1, "UPDATE meta SET show_since = ? WHERE id = 1", since);
      await runDurableObjectAlarm(shard(t, 1));
      // Its reveal came after the incomplete merge: the others' counts and its own, partial until its report is in.
      const lateReveal = await sockets[1]!.waitFor((f) => f.type === "reveal" && f.index === 0, 3000);
      expect(lateReveal.partial).toBe(true);
      expect(lateReveal.distribution.find((d: { option: string }) => d.option === correctOf(t, q.id)).count).toBe(4);
      // (The spectator saw every seated player's row before the show too: look past the provisional board.)
      const complete = await watcher.waitFor(
        (f) => f.type === "leaderboard" && f.top.length === 4,
        3000,
        watcher.frames.indexOf(provisional) + 1,
      );
      expect(complete.provisional).toBeUndefined();
      expect(complete.version).toBeGreaterThan(provisional.version);
      expect(((await call(`/api/tournaments/${t.id}/leaderboard`)).body as unknown[]).length).toBe(4);
      const full = await sockets[0]!.waitFor((f) => f.type === "distribution" && f.index === 0 && f.partial === undefined, 3000);
      expect(full.distribution.find((d: { option: string }) => d.option === correctOf(t, q.id)).count).toBe(4);
      await sockets[1]!.waitFor((f) => f.type === "leaderboard" && f.top.length === 4 && f.provisional === undefined, 3000);
    },
  );

  it("shows in the console's live view a fair-play flag raised on a play shard", { timeout: TIMEOUT_MS }, async () => {
    const op = await makeOperator();
    const show = await shardedShow(2);
    const { t, ps, sockets } = show;
    await startNow(t.id);
    // Player 1 (shard 1) answers two questions right within milliseconds of the push: faster than anyone reads.
    for (const ord of [0, 1]) {
      await openNow(t, ord);
      for (const [i, s] of sockets.entries()) {
        const q = (await s.waitFor((f) => f.type === "question" && f.question.index === ord, 3000)).question;
        await answerOn(s, `q${ord}p${i}`, q.id, i === 1 ? correctOf(t, q.id) : wrongOf(t, q.id));
      }
      // However loaded the test machine, 50 ms after the push: faster than anyone reads the question.
      await shardSql(t, 1, "UPDATE plays SET response_ms = 50 WHERE user_id = ? AND ord = ?", ps[1]!.id, ord);
      await closeNow(t);
    }
    const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(live.status, live.text).toBe(200);
    expect(live.body.status).toBe("live");
    expect(live.body.flags).toEqual([
      { userId: ps[1]!.id, username: ps[1]!.username, flags: [expect.objectContaining({ kind: "inhuman_speed" })] },
    ]);
  });
  it("shows in the console's live view a pair on two shards sharing a device, before settlement", { timeout: TIMEOUT_MS }, async () => {
    const op = await makeOperator();
    const show = await shardedShow(2);
    const { t, ps, sockets } = show;
    await startNow(t.id);
    // Players 0 (shard 0) and 1 (shard 1) joined from one device and give the same answers.
    await roomSql(t.id, "UPDATE participants SET device_hash = 'one-device' WHERE user_id IN (?, ?)", ps[0]!.id, ps[1]!.id);
    for (let ord = 0; ord < 5; ord++) {
      await openNow(t, ord);
      for (const [i, s] of sockets.entries()) {
        const q = (await s.waitFor((f) => f.type === "question" && f.question.index === ord, 3000)).question;
        await answerOn(s, `q${ord}p${i}`, q.id, wrongOf(t, q.id));
      }
      await closeNow(t);
    }
    const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(live.status, live.text).toBe(200);
    expect(live.body.status).toBe("live");
    const pairs = (live.body.flags as { userId: number; flags: { kind: string; otherUserId?: number }[] }[]).flatMap((f) =>
      f.flags.filter((x) => x.kind === "shared_device").map((x) => [f.userId, x.otherUserId]),
    );
    expect(pairs.sort()).toEqual(
      [
        [ps[0]!.id, ps[1]!.id],
        [ps[1]!.id, ps[0]!.id],
      ].sort(),
    );
  });
});
