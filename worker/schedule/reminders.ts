// "Remind me" (docs/featured-events.md): each cron run sends the reminders whose window it falls
// in (common/domain/featured.ts), a day and ten minutes before a featured event's start, as an
// in-app notification (stored, then pushed live) and an email. Each reminder's sent marker is
// claimed in the same D1 batch as its notification: the UPDATE only changes an unsent marker and
// the notification is written only when it did, so a retried or overlapping run sends nothing twice.
// A player who may not be drawn back to play (on a break or self-excluded, deleted, frozen,
// suspended or banned) gets nothing, and their reminder counts as handled; the email also waits
// on the player's "Email me event reminders" setting.
import { FEATURED, MAIL, timeLeftText, utcTime } from "../../common/messages";
import { REMINDER_KINDS, REMINDER_WINDOWS, type ReminderKind } from "../../common/domain/featured";
import { parseJsonObject } from "../db/present";
import type { Preferences } from "../../common/api/accounts";
import { createDb } from "../db/client";
import { pushStoredNotification } from "../durable/hub-client";
import { mailerFor } from "../email/mailer";
import { describeError } from "../http/errors";

/** Reminders handled per kind and run: a run stays short, and the next one (5 minutes on) takes the rest. */
const REMINDERS_PER_RUN = 200;

const MARKER: Record<ReminderKind, string> = { day: "day_sent_at", soon: "soon_sent_at" };

/** The player may be reminded at ?1 (now): an account in good standing, not on a break or self-excluded. */
const MAY_BE_REMINDED = `u.deleted_at IS NULL AND u.frozen_at IS NULL AND u.suspended_at IS NULL AND u.banned_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.user_id = u.id AND e.starts_at <= ?1 AND (e.ends_at IS NULL OR e.ends_at > ?1))`;

interface Due {
  user_id: number;
  tournament_id: number;
  title: string;
  start_time: number;
  username: string;
  email: string;
  preferences: string | null;
}

export interface ReminderReport {
  sent: { kind: ReminderKind; userId: number; tournamentId: number }[];
  withheld: number;
}

export async function sendDueReminders(env: Env, now: number): Promise<ReminderReport> {
  const report: ReminderReport = { sent: [], withheld: 0 };
  for (const kind of REMINDER_KINDS) {
    const { leadMs, floorMs } = REMINDER_WINDOWS[kind];
    const marker = MARKER[kind];
    const { results: due } = await env.DB.prepare(
      `SELECT r.user_id, r.tournament_id, t.title, t.start_time, u.username, u.email, u.preferences
       FROM tournament_reminders r JOIN tournaments t ON t.id = r.tournament_id JOIN users u ON u.id = r.user_id
       WHERE r.${marker} IS NULL AND t.status = 'upcoming' AND t.start_time - ?1 <= ?2 AND t.start_time - ?1 > ?3
       ORDER BY t.start_time, r.user_id LIMIT ?4`,
    )
      .bind(now, leadMs, floorMs, REMINDERS_PER_RUN)
      .all<Due>();
    if (due.length === 0) continue;
    const statements = due.flatMap((r) => [
      env.DB.prepare(`UPDATE tournament_reminders SET ${marker} = ?1 WHERE user_id = ?2 AND tournament_id = ?3 AND ${marker} IS NULL`).bind(
        now,
        r.user_id,
        r.tournament_id,
      ),
      // Only when this run claimed the marker, and only to a player who may be reminded now.
      env.DB.prepare(
        `INSERT INTO notifications (user_id, message, action, tournament_id, status, created_at)
         SELECT u.id, ?2, 'event_reminder', ?3, 'upcoming', ?1 FROM users u WHERE u.id = ?4 AND changes() > 0 AND ${MAY_BE_REMINDED}`,
      ).bind(now, FEATURED.reminder(r.title, timeLeftText(r.start_time - now)), r.tournament_id, r.user_id),
    ]);
    const results = await env.DB.batch(statements);
    const mailer = mailerFor(env, createDb(env.DB));
    const deliveries: Promise<void>[] = [];
    due.forEach((r, i) => {
      const claimed = (results[2 * i]?.meta.changes ?? 0) > 0;
      if (!claimed) return;
      if ((results[2 * i + 1]?.meta.changes ?? 0) === 0) {
        report.withheld++;
        return;
      }
      report.sent.push({ kind, userId: r.user_id, tournamentId: r.tournament_id });
      const left = timeLeftText(r.start_time - now);
      deliveries.push(
        pushStoredNotification(env, r.user_id, {
          type: "notification",
          message: FEATURED.reminder(r.title, left),
          data: { action: "event_reminder", tournamentId: r.tournament_id, status: "upcoming" },
        }),
      );
      if (parseJsonObject<Preferences>(r.preferences).eventReminderEmails === false) return;
      const site = env.SITE_URL.replace(/\/+$/, "");
      const mail = MAIL.eventReminder(
        r.username,
        r.title,
        left,
        utcTime(r.start_time),
        `${site}/tournaments/${r.tournament_id}`,
        `${site}/profile`,
      );
      deliveries.push(
        mailer
          .send({ to: r.email, kind: "event_reminder", ...mail })
          // The in-app notification is stored; a mail that fails is logged (without its address) and not retried.
          .catch((e: unknown) => console.error("email not sent", { kind: "event_reminder", reason: describeError(e) })),
      );
    });
    await Promise.all(deliveries);
  }
  return report;
}
