// The one step-up dialog: shown when a sensitive request (withdrawing, setting up 2FA, changing
// the email address or the password) needs the password confirmed; lib/step-up.ts retries the
// request once it is. The dialog's code loads with the first step-up, not with every page.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { setStepUpPrompt } from "@/lib/step-up";

const StepUpForm = lazy(() => import("./step-up-form"));

export function StepUpDialogHost() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          // A second request asking while the dialog is open waits for the same answer.
          const earlier = settle.current;
          settle.current = (confirmed) => {
            earlier?.(confirmed);
            resolve(confirmed);
          };
          setWanted(true);
          setOpen(true);
        }),
    );
    return () => setStepUpPrompt(null);
  }, []);

  const finish = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(false);
  };

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <StepUpForm open={open} onFinish={finish} />
    </Suspense>
  );
}
