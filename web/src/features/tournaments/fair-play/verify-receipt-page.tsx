import { useState, type FormEvent } from "react";
import { ShieldCheck } from "lucide-react";
import { answerReceiptSchema, type AnswerReceipt } from "@common/api/fair-play";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useVerifyReceipt } from "./api";
import { ReceiptVerdict } from "./receipts-list";

/** What is wrong with the pasted text, or the receipt it holds. */
function parseReceipt(text: string): { receipt: AnswerReceipt } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: "This is not valid JSON. Paste the receipt exactly as it was copied." };
  }
  const parsed = answerReceiptSchema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "receipt"))];
    return { problem: `This is not an answer receipt: check ${fields.join(", ")}.` };
  }
  return { receipt: parsed.data };
}

/** /verify-receipt: anyone pastes an answer receipt and asks the server whether it signed it. */
export default function VerifyReceiptPage() {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useVerifyReceipt();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.reset();
    const result = parseReceipt(text);
    if ("problem" in result) setProblem(result.problem);
    else {
      setProblem(null);
      verify.mutate(result.receipt);
    }
  };

  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldCheck className="h-5 w-5 text-primary" aria-hidden /> Check an answer receipt
          </CardTitle>
          <CardDescription>
            Every answer a player sends gets a receipt signed by our server: the question, the answer, when it arrived, the response time
            and the points. Paste one here to check that it is genuine and unchanged.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="space-y-3">
            <label htmlFor="receipt-json" className="text-sm font-medium">
              Receipt (JSON)
            </label>
            <textarea
              id="receipt-json"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={8}
              spellCheck={false}
              aria-invalid={problem !== null}
              aria-describedby={problem ? "receipt-problem" : undefined}
              className="w-full min-w-0 rounded-md border border-input bg-background p-2 font-mono text-xs"
            />
            {problem && (
              <p id="receipt-problem" role="alert" className="text-sm text-destructive">
                {problem}
              </p>
            )}
            <Button type="submit" disabled={text.trim() === "" || verify.isPending}>
              Check receipt
            </Button>
            <div className="text-sm">
              <ReceiptVerdict verify={verify} />
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
