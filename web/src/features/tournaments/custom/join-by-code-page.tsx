// /tournaments/join: type or paste an invite code (or the whole link) to open a private tournament.
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { CUSTOM } from "@common/messages";
import { invitePath, normalizeInviteCode } from "@common/domain/custom-tournaments";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { invalidProps } from "@/lib/form";

export default function JoinByCodePage() {
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const code = normalizeInviteCode(text);
    if (code === null) return setError(CUSTOM.inviteCode);
    setError(undefined);
    navigate(invitePath(code));
  };
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <Card>
        <CardHeader>
          <CardTitle>Join with an invite code</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="space-y-4" aria-label="Join with an invite code">
            <Field id="invite-code" label="Invite code or link" error={error}>
              <Input
                id="invite-code"
                autoComplete="off"
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.target.value)}
                {...invalidProps("invite-code", error)}
              />
            </Field>
            <Button type="submit">Find tournament</Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
