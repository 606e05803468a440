// New versions of the legal documents from the web app's side: a money request (deposit, paid
// join, withdrawal) the server refuses with terms_not_accepted opens the one terms dialog
// (components/terms-dialog.tsx) to read and accept them, then lib/api-client.ts sends the request
// once more. Closing the dialog keeps the refusal. docs/player-data.md.

/** Shows the dialog; resolves true once the versions in force are accepted, false when the person closed it. */
type TermsPrompt = () => Promise<boolean>;

let prompt: TermsPrompt | null = null;

/** The dialog registers itself while mounted (app/providers.tsx). */
export function setTermsPrompt(next: TermsPrompt | null): void {
  prompt = next;
}

/** Asks for the acceptance now; false when no dialog is mounted or the person closed it. */
export const askTermsAcceptance = async (): Promise<boolean> => (prompt ? prompt() : false);
