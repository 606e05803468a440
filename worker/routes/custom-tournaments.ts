// Private custom tournaments (docs/custom-tournaments.md), under /api/tournaments beside the public
// routes: an Elite player creates one (POST /custom), lists their own (GET /custom) and cancels one
// nobody joined (POST /custom/:id/cancel); anyone holding an invite code sees that tournament
// (GET /invite/:code) and joins it through the ordinary join with the code. Every rule of play,
// paid or free, is the ordinary one: the room, the join checks and the ledger do not know who
// created a tournament.
import { Hono } from "hono";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import {
  createCustomTournamentSchema,
  inviteParamSchema,
  type CancelCustomResult,
  type CustomTournament,
  type InvitedTournament,
} from "../../common/api/custom-tournaments";
import { CUSTOM, PLAY } from "../../common/messages";
import { CUSTOM_OPEN_MAX, CUSTOM_START_MAX_AHEAD_MS, CUSTOM_START_MIN_LEAD_MS, CUSTOM_TOURNAMENT_MIN_LEVEL } from "../../common/spec";
import { creatorMayCancel, invitePath, mayCreateCustom } from "../../common/domain/custom-tournaments";
import type { Db } from "../db/client";
import { categories, tournaments } from "../db/schema";
import { presentTournament } from "../db/present-tournament";
import { roomFor, unwrap } from "../durable/room-client";
import { assertNotSuspended } from "../admin/account-state";
import { badRequest, conflict, forbidden, notFound } from "../http/errors";
import { idempotent } from "../http/idempotency";
import { currentUser, requireUser } from "../http/middleware";
import { idParam, noFields, validate } from "../http/validate";
import { demoQuestionReuse } from "../questions/usage";
import { createCustomTournament, inviteCodeOfReference, newInviteCode } from "../tournaments/custom";
import { tournamentDetail } from "../tournaments/detail";
import type { AppEnv } from "../http/app-env";

type Row = { t: typeof tournaments.$inferSelect; categoryName: string };

const present = ({ t, categoryName }: Row): CustomTournament => ({
  ...presentTournament(t, categoryName),
  inviteCode: t.inviteCode!,
  invitePath: invitePath(t.inviteCode!),
  cancellable: creatorMayCancel(t),
});

const withCategory = (db: Db) =>
  db
    .select({ t: tournaments, categoryName: categories.name })
    .from(tournaments)
    .innerJoin(categories, eq(categories.id, tournaments.categoryId));

async function byInviteCode(db: Db, code: string): Promise<Row | undefined> {
  return withCategory(db).where(eq(tournaments.inviteCode, code)).get();
}

export const customTournamentRoutes = new Hono<AppEnv>()
  // A double click or a retry with the same Idempotency-Key creates one tournament, and answers the same.
  .post("/custom", requireUser, validate("json", createCustomTournamentSchema), async (c) => {
    const user = currentUser(c);
    if (!mayCreateCustom(user.level)) throw forbidden(CUSTOM.locked(CUSTOM_TOURNAMENT_MIN_LEVEL), "custom_level_required");
    assertNotSuspended(user);
    const draft = c.req.valid("json");
    const now = Date.now();
    if (draft.startTime < now + CUSTOM_START_MIN_LEAD_MS) throw badRequest(CUSTOM.startTooSoon(CUSTOM_START_MIN_LEAD_MS / 60_000));
    if (draft.startTime > now + CUSTOM_START_MAX_AHEAD_MS) throw badRequest(CUSTOM.startTooLate(CUSTOM_START_MAX_AHEAD_MS / 86_400_000));
    const db = c.get("db");
    const answerFor = async (code: string) => {
      const row = await byInviteCode(db, code);
      if (!row) throw new Error("custom tournament created without its row");
      return present(row);
    };
    return idempotent(c, {
      scope: "custom_tournament",
      request: draft,
      run: async (claim) => {
        const inviteCode = newInviteCode();
        const id = await createCustomTournament(c.env, draft, user.id, inviteCode, {
          demoReuse: demoQuestionReuse(c.env),
          openMax: CUSTOM_OPEN_MAX,
          claim,
        });
        if (id === null) throw conflict(CUSTOM.tooMany(CUSTOM_OPEN_MAX), "custom_limit_reached");
        // Arms the room's first alarm and publishes its commitment before anyone can join.
        await roomFor(c.env, id).init(id);
        return { reference: `custom_tournament:${inviteCode}`, answer: await answerFor(inviteCode) };
      },
      rebuild: (reference) => answerFor(inviteCodeOfReference(reference)),
    });
  })

  .get("/custom", requireUser, async (c) => {
    const me = currentUser(c);
    const rows = await withCategory(c.get("db"))
      .where(and(eq(tournaments.creatorUserId, me.id), isNotNull(tournaments.inviteCode)))
      .orderBy(desc(tournaments.startTime), desc(tournaments.id))
      .limit(100)
      .all();
    return c.json(rows.map(present));
  })

  .post("/custom/:id/cancel", requireUser, idParam, noFields, async (c) => {
    const { id } = c.req.valid("param");
    const me = currentUser(c);
    const row = await c
      .get("db")
      .select({ creatorUserId: tournaments.creatorUserId, inviteCode: tournaments.inviteCode })
      .from(tournaments)
      .where(eq(tournaments.id, id))
      .get();
    // Not a custom tournament at all: as unknown as any id (nobody learns what exists).
    if (!row || row.inviteCode === null) throw notFound(PLAY.notFound, "tournament_not_found");
    if (row.creatorUserId !== me.id) throw forbidden(CUSTOM.notCreator, "not_creator");
    unwrap(await roomFor(c.env, id).cancelByCreator(id));
    return c.json({ tournamentId: id, cancelled: true } satisfies CancelCustomResult);
  })

  // The code is the key: signed out, a player sees what they are invited to and signs in to join.
  .get("/invite/:code", validate("param", inviteParamSchema), async (c) => {
    const { code } = c.req.valid("param");
    const db = c.get("db");
    const row = await byInviteCode(db, code);
    if (!row) throw notFound(CUSTOM.inviteNotFound, "invite_not_found");
    const detail = await tournamentDetail(db, row.t, row.categoryName, c.get("user"));
    return c.json({ ...detail, inviteCode: code } satisfies InvitedTournament);
  });
