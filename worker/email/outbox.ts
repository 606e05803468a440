// The local outbox: with no provider configured, mail is written to D1 for the dev outbox page
// (GET /api/dev/outbox, /dev/outbox) instead of being sent anywhere.
import { desc } from "drizzle-orm";
import type { OutboxMail } from "../../common/api/email";
import { OUTBOX_PAGE_SIZE } from "../../common/spec";
import type { Db } from "../db/client";
import { emailOutbox } from "../db/schema";
import { iso } from "../db/present";
import type { Mailer } from "./types";

export const outboxMailer = (db: Db): Mailer => ({
  async send(mail) {
    await db.insert(emailOutbox).values({ toAddress: mail.to, subject: mail.subject, textBody: mail.text, kind: mail.kind });
  },
});

export async function listOutbox(db: Db): Promise<OutboxMail[]> {
  const rows = await db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)).limit(OUTBOX_PAGE_SIZE).all();
  return rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: r.textBody, kind: r.kind, createdAt: iso(r.createdAt) }));
}
