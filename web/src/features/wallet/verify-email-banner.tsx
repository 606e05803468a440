import { MailWarning } from "lucide-react";
import type { User } from "@common/api/types";
import { EMAIL } from "@common/messages";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useResendVerification } from "./api";

/** Withdrawals need a verified address: until then, this says so and offers a new link. */
export function VerifyEmailBanner({ user }: { user: User }) {
  const resend = useResendVerification();
  if (user.emailVerified) return null;
  // Laid out by its own width, not the screen's: in the dashboard's narrow wallet card the button goes
  // under the text, on the wider withdraw page beside it; a long address breaks anywhere rather than
  // pushing the button past the card.
  return (
    <section aria-label={EMAIL.bannerTitle} className="@container rounded-lg border border-amber-500/50 bg-amber-500/10 p-4 text-sm">
      <div className="flex flex-col gap-3 @lg:flex-row @lg:items-center">
        <MailWarning className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
        <div className="min-w-0 flex-1">
          <p className="font-medium">{EMAIL.bannerTitle}</p>
          <p className="text-muted-foreground [overflow-wrap:anywhere]">{EMAIL.bannerText(user.email)}</p>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="self-start @lg:self-auto"
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: (res) => toast.success("Verification link sent", res.message),
              onError: (error) => toast.error("Could not send the link", errorMessage(error)),
            })
          }
        >
          {resend.isPending ? "Sending..." : EMAIL.resend}
        </Button>
      </div>
    </section>
  );
}
