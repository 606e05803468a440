import { Fragment } from "react";
import { Inbox } from "lucide-react";
import type { OutboxMail } from "@common/api/email";
import { EMAIL } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageSpinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { useOutbox } from "./api";

/**
 * /dev/outbox: the mail `npm start` kept instead of sending (no provider configured), newest
 * first, with its links clickable. Only a local server without a provider answers the API.
 */
export default function OutboxPage() {
  const outbox = useOutbox();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <div className="flex items-center justify-between gap-4">
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Inbox className="h-7 w-7" aria-hidden /> Local outbox
        </h1>
        <Button variant="outline" onClick={() => void outbox.refetch()} disabled={outbox.isFetching}>
          Refresh
        </Button>
      </div>
      <p className="mt-2 text-sm text-muted-foreground">Mail this local server would have sent. Nothing here left the machine.</p>
      <div className="mt-6 space-y-4">
        {outbox.isLoading ? (
          <PageSpinner />
        ) : outbox.error ? (
          <p role="alert">
            {outbox.error instanceof ApiError && outbox.error.status === 404 ? EMAIL.outboxOff : errorMessage(outbox.error)}
          </p>
        ) : outbox.data && outbox.data.length > 0 ? (
          <ul aria-label="Mails" className="space-y-4">
            {outbox.data.map((m) => (
              <MailCard key={m.id} mail={m} />
            ))}
          </ul>
        ) : (
          <p>{EMAIL.outboxEmpty}</p>
        )}
      </div>
    </div>
  );
}

function MailCard({ mail }: { mail: OutboxMail }) {
  return (
    <li aria-label={`${mail.subject} to ${mail.to}`}>
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">{mail.subject}</CardTitle>
          <CardDescription>
            To {mail.to} · {new Date(mail.createdAt).toLocaleString()}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <p className="whitespace-pre-wrap break-words text-sm">
            <Linked text={mail.text} />
          </p>
        </CardContent>
      </Card>
    </li>
  );
}

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;

/** The mail's text with every http(s) URL as a link. */
function Linked({ text }: { text: string }) {
  return text.split(URL_PATTERN).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part} className="text-primary underline">
        {part}
      </a>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
