// Players report a question they were shown ("Report this question" on the play screen): stored
// in question_feedback for the operators' queue. Only a question this player was actually put to
// in that tournament can be reported; any other id answers exactly like an unknown one, so the
// route tells nobody which questions exist or which a tournament holds.
import { Hono } from "hono";
import { questionReportSchema } from "../../common/api/question-bank";
import { QUESTION_REPORT } from "../../common/messages";
import { QUESTION_REPORTS_PER_HOUR } from "../../common/spec";
import { playRoomFor } from "../durable/room-client";
import { conflict, notFound } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { hit } from "../http/rate-limit";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

const unknownQuestion = () => notFound(QUESTION_REPORT.notFound, "question_not_found");

/**
 * Recorded in D1 (a finished player or a settled tournament), or issued by the room (mid-play, a
 * live show's reveal). D1 and the room are both asked every time, whatever the ids: asking the
 * room only for a question the tournament holds would let the answer's timing tell which ones it holds.
 */
async function wasShown(env: Env, tournamentId: number, userId: number, questionId: number): Promise<boolean> {
  const [row, issued] = await Promise.all([
    env.DB.prepare(
      `SELECT EXISTS (SELECT 1 FROM tournament_participants WHERE tournament_id = ?1 AND user_id = ?2) AS joined,
              EXISTS (SELECT 1 FROM user_responses WHERE tournament_id = ?1 AND user_id = ?2 AND question_id = ?3) AS recorded,
              EXISTS (SELECT 1 FROM tournament_questions WHERE tournament_id = ?1 AND question_id = ?3) AS held`,
    )
      .bind(tournamentId, userId, questionId)
      .first<{ joined: number; recorded: number; held: number }>(),
    playRoomFor(env, tournamentId, userId).then((room) => room.wasIssued(tournamentId, userId, questionId)),
  ]);
  return !!row && !!row.joined && !!row.held && (!!row.recorded || issued);
}

export const questionReportRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/:id/report", idParam, validate("json", questionReportSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { reason, note, tournamentId } = c.req.valid("json");
    const user = currentUser(c);
    await hit(c.get("db"), `question-report:user:${user.id}`, { max: QUESTION_REPORTS_PER_HOUR, windowMs: 60 * 60_000 });
    if (!(await wasShown(c.env, tournamentId, user.id, id))) throw unknownQuestion();
    // One statement: two reports sent at once still store one.
    const inserted = await c.env.DB.prepare(
      `INSERT INTO question_feedback (question_id, user_id, feedback_type, comment, tournament_id)
     SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM question_feedback WHERE question_id = ?1 AND user_id = ?2)
     RETURNING id`,
    )
      .bind(id, user.id, reason, note ?? null, tournamentId)
      .first<{ id: number }>();
    if (!inserted) throw conflict(QUESTION_REPORT.already, "question_already_reported");
    return c.json({ id: inserted.id, message: QUESTION_REPORT.sent }, 201);
  });
