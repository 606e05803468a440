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
  return (
    <section
      aria-label={EMAIL.bannerTitle}
      className="flex flex-col gap-3 rounded-lg border border-amber-500/50 bg-amber-500/10 p-4 text-sm sm:flex-row sm:items-center"
    >
      <MailWarning className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <div className="flex-1">
        <p className="font-medium">{EMAIL.bannerTitle}</p>
        <p className="text-muted-foreground">{EMAIL.bannerText(user.email)}</p>
      </div>
      <Button
        variant="outline"
        size="sm"
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
    </section>
  );
}
