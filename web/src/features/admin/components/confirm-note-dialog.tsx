// Confirming an operator action with a note (why), which the audit log keeps with the action.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/input";

interface NoteFormProps {
  title: string;
  description: string;
  confirmLabel: string;
  noteLabel: string;
  noteRequired: boolean;
  pending: boolean;
  destructive: boolean;
  onCancel: () => void;
  onConfirm: (note: string) => void;
}

export function ConfirmWithNoteDialog({
  open,
  onOpenChange,
  noteLabel = "Note",
  noteRequired = false,
  pending = false,
  destructive = false,
  ...rest
}: Omit<NoteFormProps, "onCancel" | "noteLabel" | "noteRequired" | "pending" | "destructive"> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  noteLabel?: string;
  noteRequired?: boolean;
  pending?: boolean;
  destructive?: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* The content unmounts while closed, so every opening starts with an empty note, however it was closed. */}
        <NoteForm
          {...rest}
          noteLabel={noteLabel}
          noteRequired={noteRequired}
          pending={pending}
          destructive={destructive}
          onCancel={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function NoteForm({ title, description, confirmLabel, noteLabel, noteRequired, pending, destructive, onCancel, onConfirm }: NoteFormProps) {
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
  return (
    <form onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <Field id="confirm-note" label={noteRequired ? noteLabel : `${noteLabel} (optional)`} error={error}>
        <Textarea id="confirm-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} rows={3} />
      </Field>
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={pending}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
