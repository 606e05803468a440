// The date-of-birth question asked before a first deposit or paid entry (docs/responsible-play.md):
// given once, so the form says so. Used by the checkout, the join flow and the profile.
import { useState, type FormEvent } from "react";
import { dateOfBirthSchema } from "@common/api/responsible-play";
import { RESPONSIBLE_UI } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { api, read } from "@/lib/api-client";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";

/** A date input and its button; `onSaved` runs once the server has stored it. */
export function DateOfBirthForm({ onSaved, submitLabel = "Save and continue" }: { onSaved: () => void; submitLabel?: string }) {
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = validate(dateOfBirthSchema, { dateOfBirth: value });
    setErrors(v.errors ?? {});
    if (!v.data) return;
    setSaving(true);
    try {
      await read(api.user["date-of-birth"].$put({ json: v.data }));
      onSaved();
    } catch (error) {
      // Under age, or already given: the server's own words.
      setErrors({ form: errorMessage(error, RESPONSIBLE_UI.dateOfBirthFailed) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
      <Field id="date-of-birth" label="Date of birth" error={errors.dateOfBirth}>
        <Input
          id="date-of-birth"
          type="date"
          autoComplete="bday"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...invalidProps("date-of-birth", errors.dateOfBirth)}
        />
      </Field>
      <p className="text-xs text-muted-foreground">{RESPONSIBLE_UI.dateOfBirthOnce}</p>
      {errors.form && (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
          {errors.form}
        </p>
      )}
      <Button type="submit" disabled={saving || value === ""} className="w-full">
        {saving ? "Saving..." : submitLabel}
      </Button>
    </form>
  );
}

/** The same question in a dialog, for flows that continue where they were (the join button). */
export function DateOfBirthDialog({
  open,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{RESPONSIBLE_UI.dateOfBirthTitle}</DialogTitle>
          <DialogDescription>{RESPONSIBLE_UI.dateOfBirthWhy}</DialogDescription>
        </DialogHeader>
        {open && <DateOfBirthForm onSaved={onSaved} />}
      </DialogContent>
    </Dialog>
  );
}
