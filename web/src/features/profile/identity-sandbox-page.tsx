// /identity/sandbox?session=…: the sandbox's stand-in for Stripe's verification screens (local
// sites only; the Worker refuses it anywhere else). The player picks a test identity's outcome and,
// for a verified one, types the legal name, date of birth and document as they would be on it.
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { SANDBOX_IDENTITY_OUTCOMES, SANDBOX_IDENTITY_OUTCOME_NAMES, type SandboxIdentityOutcome } from "@common/api/identity";
import { IDENTITY } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input, Label } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useCompleteSandboxIdentity } from "./identity-api";

const OUTCOME_LABEL: Record<SandboxIdentityOutcome, string> = {
  verified: "Verified: the identity below",
  document_expired: `Needs another try: ${SANDBOX_IDENTITY_OUTCOMES.document_expired.reason}`,
  selfie_face_mismatch: `Needs another try: ${SANDBOX_IDENTITY_OUTCOMES.selfie_face_mismatch.reason}`,
  document_unverified_other: `Refused: ${SANDBOX_IDENTITY_OUTCOMES.document_unverified_other.reason}`,
};

export default function IdentitySandboxPage() {
  const sessionId = useSearchParams()[0].get("session") ?? "";
  const navigate = useNavigate();
  const complete = useCompleteSandboxIdentity();
  const [outcome, setOutcome] = useState<SandboxIdentityOutcome>("verified");
  const [v, setV] = useState({ firstName: "", lastName: "", dateOfBirth: "", documentNumber: "", documentCountry: "US" });
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.target.value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = outcome === "verified" ? { outcome, sessionId, ...v } : { outcome, sessionId };
    complete.mutate(input, {
      onSuccess: () => {
        toast.success("Identity", IDENTITY.sandboxDone);
        navigate("/profile?tab=identity");
      },
      onError: (error) => toast.error("Identity verification", errorMessage(error)),
    });
  };

  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <Card>
        <CardHeader>
          <CardTitle>{IDENTITY.sandboxTitle}</CardTitle>
          <CardDescription>{IDENTITY.sandboxIntro}</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="space-y-4" aria-label={IDENTITY.sandboxTitle}>
            <fieldset>
              <legend className="mb-2 text-sm font-medium">Outcome</legend>
              <RadioGroup value={outcome} onValueChange={(o) => setOutcome(o as SandboxIdentityOutcome)} aria-label="Outcome">
                {SANDBOX_IDENTITY_OUTCOME_NAMES.map((o) => (
                  <div key={o} className="flex items-center gap-2">
                    <RadioGroupItem value={o} id={`outcome-${o}`} />
                    <Label htmlFor={`outcome-${o}`} className="cursor-pointer">
                      {OUTCOME_LABEL[o]}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
            </fieldset>
            {outcome === "verified" && (
              <>
                <Field id="legal-first" label="Legal first name (and middle names)">
                  <Input id="legal-first" value={v.firstName} onChange={set("firstName")} />
                </Field>
                <Field id="legal-last" label="Legal last name">
                  <Input id="legal-last" value={v.lastName} onChange={set("lastName")} />
                </Field>
                <Field id="legal-dob" label="Date of birth (YYYY-MM-DD)">
                  <Input id="legal-dob" placeholder="1990-05-17" value={v.dateOfBirth} onChange={set("dateOfBirth")} />
                </Field>
                <Field id="document-number" label="Document number">
                  <Input id="document-number" value={v.documentNumber} onChange={set("documentNumber")} />
                </Field>
                <Field id="document-country" label="Issuing country (2 letters)">
                  <Input id="document-country" maxLength={2} value={v.documentCountry} onChange={set("documentCountry")} />
                </Field>
              </>
            )}
            <div className="flex gap-2">
              <Button type="submit" disabled={complete.isPending || !sessionId}>
                {complete.isPending ? "Submitting..." : "Submit"}
              </Button>
              <Button variant="outline" asChild>
                <Link to="/profile?tab=identity">Cancel</Link>
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
