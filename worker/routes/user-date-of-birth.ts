// PUT /api/user/date-of-birth: asked before the first deposit or paid entry, set once (a later
// correction is an operator's matter). A date under the age where the player is stays stored,
// so the age check cannot be retried with another date.
import { Hono } from "hono";
import { and, eq, gt, isNull } from "drizzle-orm";
import { dateOfBirthSchema } from "../../common/api/responsible-play";
import { IDENTITY, RESPONSIBLE } from "../../common/messages";
import { ageOn } from "../../common/domain/responsible-play";
import { identityVerifications, users } from "../db/schema";
import { conflict, HttpError } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { minAgeHere } from "../responsible-play/checks";
import { responsiblePlayState } from "../responsible-play/view";

export const userDateOfBirthRoutes = new Hono<AppEnv>().use(requireUser).put("/", validate("json", dateOfBirthSchema), async (c) => {
  const db = c.get("db");
  const me = currentUser(c);
  const { dateOfBirth } = c.req.valid("json");
  // A verified identity's date of birth is the one every age rule reads; it is not the player's to change.
  const verified = await db
    .select({ id: identityVerifications.userId })
    .from(identityVerifications)
    .where(and(eq(identityVerifications.userId, me.id), gt(identityVerifications.verifiedCount, 0)))
    .get();
  if (verified) throw conflict(IDENTITY.dateOfBirthVerified, "date_of_birth_verified");
  const set = await db
    .update(users)
    .set({ dateOfBirth })
    .where(and(eq(users.id, me.id), isNull(users.dateOfBirth)))
    .returning({ id: users.id })
    .get();
  if (!set) throw conflict(RESPONSIBLE.dateOfBirthAlreadySet, "date_of_birth_already_set");
  const now = Date.now();
  const minAge = minAgeHere(c);
  if (ageOn(dateOfBirth, now) < minAge) throw new HttpError(403, "underage", RESPONSIBLE.underage(minAge));
  return c.json(await responsiblePlayState(db, { id: me.id, dateOfBirth }, now));
});
