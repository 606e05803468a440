// The one terms dialog: shown when a money request is refused because a legal document has a new
// version the player has not accepted (lib/terms.ts); lib/api-client.ts sends the request again
// once it is accepted. The dialog's code loads the first time it is needed, not with every page.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { setTermsPrompt } from "@/lib/terms";

const TermsAcceptForm = lazy(() => import("./terms-accept-form"));

export function TermsDialogHost() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const settle = useRef<((accepted: boolean) => void) | null>(null);

  useEffect(() => {
    setTermsPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          // A second request refused while the dialog is open waits for the same answer.
          const earlier = settle.current;
          settle.current = (accepted) => {
            earlier?.(accepted);
            resolve(accepted);
          };
          setWanted(true);
          setOpen(true);
        }),
    );
    return () => setTermsPrompt(null);
  }, []);

  const finish = (accepted: boolean) => {
    settle.current?.(accepted);
    settle.current = null;
    setOpen(false);
  };

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <TermsAcceptForm open={open} onFinish={finish} />
    </Suspense>
  );
}
