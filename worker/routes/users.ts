// Players as others see them: public profiles (honouring the visibility switches) and avatars,
// served from their own cacheable URL so lists never carry the image itself.
import { Hono } from "hono";
import { and, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { usernameParamSchema, type PublicProfile } from "../../common/api/tournaments";
import { users } from "../db/schema";
import { avatarUrl, iso, parseJsonObject } from "../db/present";
import { visibility } from "../db/present-tournament";
import { notFound } from "../http/errors";
import { validate } from "../http/validate";
import { PLAYER } from "../../common/messages";
import type { AppEnv } from "../http/app-env";

const AVATAR_NOT_FOUND = "This player has no avatar";
const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/=]+)$/;

const byName = (name: string) => and(sql`lower(${users.username}) = lower(${name})`, isNull(users.deletedAt));

const usernameParam = validate("param", z.object({ username: usernameParamSchema }));

export const userProfileRoutes = new Hono<AppEnv>()
  .get("/:username", usernameParam, async (c) => {
    const name = c.req.valid("param").username;
    const u = await c.get("db").select().from(users).where(byName(name)).get();
    if (!u) throw notFound(PLAYER.notFound, "player_not_found");
    const show = visibility(u.preferences);
    const profile: PublicProfile = {
      id: u.id,
      username: u.username,
      avatar: u.avatar ? avatarUrl(u.username, u.avatarVersion) : null,
      bio: u.bio,
      location: u.location,
      level: show.showLevel ? u.level : null,
      tournamentsPlayed: u.tournamentsPlayed,
      tournamentsWon: show.showWins ? u.tournamentsWon : null,
      socialLinks: show.showSocial ? parseJsonObject<Record<string, string>>(u.socialLinks) : null,
      createdAt: iso(u.createdAt),
    };
    return c.json(profile satisfies PublicProfile);
  })

  /**
   * The avatar image. Its ETag is the avatar's version, so a revalidation costs no image read
   * beyond the row; a URL that names the current version (?v=, as lists send it) never changes
   * and may be cached for good.
   */
  .get("/:username/avatar", usernameParam, async (c) => {
    const name = c.req.valid("param").username;
    const u = await c
      .get("db")
      .select({ id: users.id, avatar: users.avatar, version: users.avatarVersion })
      .from(users)
      .where(byName(name))
      .get();
    if (!u) throw notFound(PLAYER.notFound, "player_not_found");
    const image = u.avatar ? DATA_URL.exec(u.avatar) : null;
    if (!image) throw notFound(AVATAR_NOT_FOUND, "avatar_not_found");
    const etag = `"${u.id}-${u.version}"`;
    const headers = {
      ETag: etag,
      "Cache-Control":
        c.req.query("v") === String(u.version) ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
    };
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
    const bytes = Uint8Array.from(atob(image[2]!), (ch) => ch.charCodeAt(0));
    return c.body(bytes, 200, { ...headers, "Content-Type": image[1]! });
  });
