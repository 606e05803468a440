import { Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/lib/toast";

interface CopyButtonProps {
  text: string;
  /** The button's name, e.g. "Copy receipt". */
  label: string;
  /** What the toast says was copied. */
  what: string;
}

/** Copies `text` to the clipboard and says whether it worked. */
export function CopyButton({ text, label, what }: CopyButtonProps) {
  const failed = () => toast.error("Copy failed", "This browser does not allow copying here. Select the text instead.");
  const copy = () => {
    const done = navigator.clipboard?.writeText(text);
    if (done) done.then(() => toast.success("Copied", `${what} copied to the clipboard.`), failed);
    else failed();
  };
  return (
    <Button type="button" variant="outline" size="sm" onClick={copy}>
      <Copy className="h-4 w-4" aria-hidden /> {label}
    </Button>
  );
}
