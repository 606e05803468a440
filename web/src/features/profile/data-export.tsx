// "Download my data": the account's data as a JSON file (GET /api/user/data-export,
// docs/player-data.md), saved under the name the server gives it.
import { useState } from "react";
import { Download } from "lucide-react";
import { LEGAL } from "@common/legal-messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ApiError, errorMessage } from "@/lib/api";
import { api } from "@/lib/api-client";

const fileNameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "trivia-arena-data.json";

async function downloadMyData(): Promise<void> {
  const res = await api.user["data-export"].$get();
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileNameOf(res.headers.get("content-disposition"));
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function DataExport() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadMyData();
    } catch (e) {
      setError(errorMessage(e, "Could not prepare your data. Please try again."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{LEGAL.exportTitle}</CardTitle>
        <CardDescription>{LEGAL.exportText}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <Button type="button" variant="outline" onClick={() => void download()} disabled={busy}>
          <Download className="h-4 w-4" aria-hidden /> {busy ? "Preparing..." : LEGAL.exportButton}
        </Button>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
