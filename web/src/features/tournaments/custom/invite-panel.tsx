// What the creator shares after creating a custom tournament: the invite link and the code, each
// with a copy button. Whoever has either can find and join the tournament; nobody else can.
import type { CustomTournament } from "@common/api/custom-tournaments";
import { CUSTOM } from "@common/messages";
import { CopyButton } from "@/components/copy-button";

export const inviteLink = (t: Pick<CustomTournament, "invitePath">) => `${window.location.origin}${t.invitePath}`;

export function InvitePanel({ tournament: t }: { tournament: CustomTournament }) {
  return (
    <section aria-label="Invite link" className="space-y-3 rounded-lg border border-primary/40 bg-primary/5 p-4">
      <h2 className="font-semibold">
        {CUSTOM.created}: {t.title}
      </h2>
      <p className="text-sm text-muted-foreground">{CUSTOM.createdDescription}</p>
      <InviteShare inviteCode={t.inviteCode} invitePath={t.invitePath} />
    </section>
  );
}

/** The invite link and the code, each with a copy button: after creating, and on the tournament's page for its creator. */
export function InviteShare({ inviteCode, invitePath }: { inviteCode: string; invitePath: string }) {
  const link = inviteLink({ invitePath });
  return (
    <>
      <div className="space-y-1">
        <p className="text-sm font-medium">Invite link</p>
        <div className="flex flex-wrap items-center gap-2">
          <code data-testid="invite-link" className="min-w-0 break-all rounded bg-muted px-2 py-1 text-sm">
            {link}
          </code>
          <CopyButton text={link} label="Copy link" what="The invite link" />
        </div>
      </div>
      <div className="space-y-1">
        <p className="text-sm font-medium">Invite code</p>
        <div className="flex flex-wrap items-center gap-2">
          <code data-testid="invite-code" className="break-all rounded bg-muted px-2 py-1 font-mono text-sm">
            {inviteCode}
          </code>
          <CopyButton text={inviteCode} label="Copy code" what="The invite code" />
        </div>
      </div>
    </>
  );
}
