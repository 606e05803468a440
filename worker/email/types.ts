import type { MailKind } from "../../common/api/email";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
}

export interface Mailer {
  /** Resolves once the mail is handed over; throws when it could not be. */
  send(mail: Mail): Promise<void>;
}
