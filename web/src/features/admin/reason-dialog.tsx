// A dialog that asks for one line of text (a resolution, a reason, a note) before an operator's action.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label, Textarea } from "@/components/ui/input";

export interface ReasonDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  label: string;
  confirm: string;
  destructive?: boolean;
  pending?: boolean;
  onConfirm: (text: string) => void;
}

export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  label,
  confirm,
  destructive,
  pending,
  onConfirm,
}: ReasonDialogProps) {
  const [text, setText] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== "") onConfirm(text.trim());
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setText("");
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="space-y-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="reason-dialog-text">{label}</Label>
            <Textarea id="reason-dialog-text" value={text} maxLength={500} required onChange={(e) => setText(e.target.value)} />
          </div>
          <DialogFooter>
            <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={pending || text.trim() === ""}>
              {confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
