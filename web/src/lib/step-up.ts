// Step-up from the web app's side: a call the server refuses with step_up_required asks the
// person for their password (and a code with 2FA on) in the one step-up dialog
// (components/step-up-dialog.tsx), then is sent once more. Cancelling keeps the refusal.
import { ApiError } from "./api";

/** Shows the dialog; resolves true once the session stepped up, false when the person cancelled. */
type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | null = null;

/** The dialog registers itself while mounted (app/providers.tsx). */
export function setStepUpPrompt(next: StepUpPrompt | null): void {
  prompt = next;
}

/** Asks for the step-up now; false when no dialog is mounted or the person cancelled. */
export const askStepUp = async (): Promise<boolean> => (prompt ? prompt() : false);

export async function withStepUp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "step_up_required") || !prompt) throw error;
    if (!(await prompt())) throw error;
    return call();
  }
}
