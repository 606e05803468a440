import { it } from "vitest";
import { correctOf, join, makeCategory, makePlayer, makeTournament, openSocket, request, type SocketClient } from "./tournament-fixtures";

it("perf", async () => {
  const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, maxParticipants: null });
  const n = Number(process.env.N ?? 200);
  const ps = [];
  for (let i = 0; i < n; i++) ps.push(await makePlayer());
  for (const p of ps) await join(p, t.id);
  const sockets: SocketClient[] = [];
  for (const p of ps) sockets.push((await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie)).client!);
  const t0 = Date.now();
  await Promise.all(
    sockets.map(async (ws, i) => {
      for (let k = 0; k < 10; k++) {
        const q = await request(ws, { type: "next", id: `n${k}` }, 60000);
        await request(ws, { type: "answer", id: `a${k}`, questionId: q.question.id, answer: correctOf(t, q.question.id) }, 60000);
      }
      void i;
    }),
  );
  console.log(`socket: ${n * 10} answers in ${Date.now() - t0} ms`);
}, 300_000);
