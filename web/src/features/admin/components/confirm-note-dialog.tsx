// Confirming an operator action with a note (why), which the audit log keeps with the action.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/input";

export function ConfirmWithNoteDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  noteLabel = "Note",
  noteRequired = false,
  pending = false,
  destructive = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  noteLabel?: string;
  noteRequired?: boolean;
  pending?: boolean;
  destructive?: boolean;
  onConfirm: (note: string) => void;
}) {
  const [note, setNote] = useState("");
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (noteRequired && note.trim() === "") {
      setError(`${noteLabel} is required: say why.`);
      return;
    }
    onConfirm(note.trim());
  };
  const change = (next: boolean) => {
    if (!next) {
      setNote("");
      setError(undefined);
    }
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <form onSubmit={submit}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <Field id="confirm-note" label={noteRequired ? noteLabel : `${noteLabel} (optional)`} error={error}>
            <Textarea id="confirm-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} rows={3} />
          </Field>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => change(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={pending}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
