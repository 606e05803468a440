// The fairness report (docs/decisions/015-per-question-commitment.md): the commitment opened once
// the tournament is settled, each question with when it went out and closed.
import type { FairnessReport, RevealedQuestion } from "../../../common/api/fair-play";
import { questionTree } from "../../../common/domain/fairness";
import { LIVE_SHOW_WINDOW_MS } from "../../../common/domain/live-show";
import { FAIR_PLAY } from "../../../common/messages";
import { QUESTION_TIME_MS } from "../../../common/spec";
import { iso } from "../../db/present";
import { committedOf } from "./commitment";
import { slotOf } from "./presenters";
import { fail, ok, type RoomResult } from "./results";
import type { RoomStore } from "./storage";
import type { MetaRow, QuestionRow } from "./tables";

/** TournamentRoom.fairness, once the room is ready. */
export function fairnessReport(store: RoomStore, meta: MetaRow): RoomResult<FairnessReport> {
  if (meta.phase === "cancelled") return fail(409, "fairness_not_revealed", FAIR_PLAY.cancelledNotRevealed);
  if (meta.phase !== "completed" || meta.commitment === null || meta.salt === null)
    return fail(409, "fairness_not_revealed", FAIR_PLAY.notRevealed);
  // Self-paced: each question's first issue, last close and count, in one pass over the plays.
  const issues = new Map<number, { first: number; last: number; count: number }>();
  for (const p of store.allPlays()) {
    const closed = p.answered_at ?? p.issued_at + QUESTION_TIME_MS;
    const seen = issues.get(p.ord);
    if (!seen) issues.set(p.ord, { first: p.issued_at, last: closed, count: 1 });
    else issues.set(p.ord, { first: Math.min(seen.first, p.issued_at), last: Math.max(seen.last, closed), count: seen.count + 1 });
  }
  const revealed = (q: QuestionRow): RevealedQuestion => {
    if (meta.format === "live_show") {
      const opened = q.opened_at;
      return {
        ...voidMark(q),
        questionId: q.question_id,
        question: q.question,
        correctAnswer: q.correct_answer,
        slot: q.ord,
        issuedAt: opened === null ? null : iso(opened),
        closedAt: opened === null ? null : iso(opened + LIVE_SHOW_WINDOW_MS),
        timesIssued: opened === null ? 0 : store.participantCount(),
      };
    }
    const seen = issues.get(q.ord);
    return {
      ...voidMark(q),
      questionId: q.question_id,
      question: q.question,
      correctAnswer: q.correct_answer,
      slot: slotOf(meta, q.ord),
      issuedAt: seen ? iso(seen.first) : null,
      closedAt: seen ? iso(seen.last) : null,
      timesIssued: seen?.count ?? 0,
    };
  };
  const all = store.questions();
  const base = { tournamentId: meta.tournament_id, commitment: meta.commitment, drawWidth: meta.draw_width };
  if (meta.commitment_version < 2) return ok({ scheme: "flat-v1", ...base, salt: meta.salt, questions: all.map(revealed) });
  const { header, leafSalts, tree } = questionTree(meta.tournament_id, meta.salt, committedOf(all));
  const issued = store.issuedOrds();
  const questions = all
    .filter((q) => issued.has(q.ord))
    .map((q) => ({ ...revealed(q), order: q.ord, leafSalt: leafSalts[q.ord]!, proof: tree.proof(q.ord) }));
  return ok({ scheme: "merkle-v2", ...base, leafCount: header.leafCount, drawKey: header.drawKey, questions });
}

/** The fairness report's mark on a question the host voided: still committed and verifiable, counted for nobody. */
const voidMark = (q: QuestionRow): { voided?: true } => (q.voided_at !== null ? { voided: true } : {});
