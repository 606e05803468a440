// The profile's Tax information (docs/identity-and-tax.md, "Tax"): whether a W-9 is needed, what is
// on file (the TIN only by its last 4 digits) and the W-9 form itself. A new filing replaces the
// one in force.
import { useState, type FormEvent } from "react";
import { FileText } from "lucide-react";
import { taxFormSchema, type TaxStatus } from "@common/api/tax";
import { dollarsToCents, formatDollars } from "@common/domain/money";
import {
  formatThresholdUsd,
  maskedTin,
  TAX_CLASSIFICATION_LABELS,
  TAX_CLASSIFICATIONS,
  US_STATE_CODES,
  W9_CERTIFICATION,
  type TinType,
} from "@common/domain/tax";
import { TAX } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, Input, Label, Select } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { PageSpinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { invalidProps, validate, type FieldErrors } from "@/lib/form";
import { toast } from "@/lib/toast";
import { useFileTaxForm, useTaxStatus } from "./tax-api";

export function TaxSettings() {
  const status = useTaxStatus();
  const [editing, setEditing] = useState(false);
  if (status.isPending) return <PageSpinner />;
  if (!status.data) return <p role="alert">{errorMessage(status.error)}</p>;
  const s = status.data;
  return (
    <div className="space-y-6">
      <TaxStatusCard status={s} />
      {s.form && !editing ? (
        <Button variant="outline" onClick={() => setEditing(true)}>
          File a new W-9
        </Button>
      ) : (
        <W9Form onFiled={() => setEditing(false)} />
      )}
    </div>
  );
}

function TaxStatusCard({ status: s }: { status: TaxStatus }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText className="h-5 w-5" aria-hidden /> Tax information
        </CardTitle>
        <CardDescription>
          US tax law requires a W-9 from US players whose prizes in a calendar year reach {formatDollars(s.threshold)}: withdrawals wait for
          it. Your taxpayer identification number is encrypted and never shown again beyond its last 4 digits.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <p>
          Prizes in {s.year}: <strong>{formatDollars(s.yearPrizes)}</strong> of the {formatDollars(s.threshold)} reporting threshold.
        </p>
        {s.formRequired && (
          <p role="alert" className="rounded-lg border border-amber-500/50 bg-amber-500/10 p-3">
            {TAX.formRequired(formatThresholdUsd(dollarsToCents(s.threshold)), s.year)}
          </p>
        )}
        {s.form ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" aria-label="W-9 on file">
            <dt className="text-muted-foreground">Status</dt>
            <dd>W-9 on file</dd>
            <dt className="text-muted-foreground">Name</dt>
            <dd>
              {s.form.legalName}
              {s.form.businessName ? ` (${s.form.businessName})` : ""}
            </dd>
            <dt className="text-muted-foreground">{s.form.tinType === "ssn" ? "SSN" : "EIN"}</dt>
            <dd>{maskedTin(s.form.tinType, s.form.tinLast4)}</dd>
            <dt className="text-muted-foreground">Address</dt>
            <dd>
              {s.form.street}, {s.form.city}, {s.form.state} {s.form.zip}
            </dd>
            <dt className="text-muted-foreground">Certified</dt>
            <dd>{new Date(s.form.certifiedAt).toLocaleString()}</dd>
          </dl>
        ) : (
          <p>No W-9 on file.</p>
        )}
      </CardContent>
    </Card>
  );
}

const EMPTY = {
  legalName: "",
  businessName: "",
  taxClassification: "individual",
  tinType: "ssn" as TinType,
  tin: "",
  street: "",
  city: "",
  state: "",
  zip: "",
  certified: false,
  signatureName: "",
};

function W9Form({ onFiled }: { onFiled: () => void }) {
  const file = useFileTaxForm();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(taxFormSchema, values);
    setErrors(v.errors ?? {});
    if (!v.data) return;
    // Sent as typed (the server validates again); the schema above has just checked every field.
    file.mutate(
      { ...values, certified: true, taxClassification: v.data.taxClassification },
      {
        onSuccess: (res) => {
          setValues(EMPTY);
          toast.success("Tax information saved", res.message ?? TAX.saved);
          onFiled();
        },
        onError: (error) => toast.error("Could not save your W-9", errorMessage(error)),
      },
    );
  };

  const set =
    (k: "legalName" | "businessName" | "tin" | "street" | "city" | "zip" | "signatureName") => (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues({ ...values, [k]: e.target.value });
  const text = (k: Parameters<typeof set>[0], id: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field id={id} label={label} error={errors[k]}>
      <Input id={id} value={values[k]} onChange={set(k)} {...props} {...invalidProps(id, errors[k])} />
    </Field>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Form W-9</CardTitle>
        <CardDescription>Request for taxpayer identification number and certification. A new W-9 replaces the one on file.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-5" noValidate aria-label="Form W-9">
          <div className="grid gap-4 sm:grid-cols-2">
            {text("legalName", "w9-legal-name", "Legal name (as on your tax return)", { autoComplete: "name", maxLength: 100 })}
            {text("businessName", "w9-business-name", "Business name (optional)", { autoComplete: "organization", maxLength: 100 })}
          </div>
          <Field id="w9-classification" label="Federal tax classification" error={errors.taxClassification}>
            <Select
              id="w9-classification"
              value={values.taxClassification}
              onChange={(e) => setValues({ ...values, taxClassification: e.target.value })}
              {...invalidProps("w9-classification", errors.taxClassification)}
            >
              {TAX_CLASSIFICATIONS.map((c) => (
                <option key={c} value={c}>
                  {TAX_CLASSIFICATION_LABELS[c]}
                </option>
              ))}
            </Select>
          </Field>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Taxpayer identification number</legend>
            <RadioGroup
              value={values.tinType}
              onValueChange={(v) => setValues({ ...values, tinType: v as TinType })}
              className="flex gap-6"
              aria-label="Number type"
            >
              {(["ssn", "ein"] as const).map((t) => (
                <div key={t} className="flex items-center gap-2">
                  <RadioGroupItem id={`w9-tin-type-${t}`} value={t} />
                  <Label htmlFor={`w9-tin-type-${t}`}>
                    {t === "ssn" ? "Social security number (SSN)" : "Employer identification number (EIN)"}
                  </Label>
                </div>
              ))}
            </RadioGroup>
            {errors.tinType && (
              <p role="alert" className="text-sm text-destructive">
                {errors.tinType}
              </p>
            )}
            {text("tin", "w9-tin", values.tinType === "ssn" ? "SSN" : "EIN", {
              inputMode: "numeric",
              autoComplete: "off",
              placeholder: values.tinType === "ssn" ? "123-45-6789" : "12-3456789",
              maxLength: 11,
            })}
          </fieldset>
          {text("street", "w9-street", "Address (number, street, apt.)", { autoComplete: "street-address", maxLength: 100 })}
          <div className="grid gap-4 sm:grid-cols-3">
            {text("city", "w9-city", "City", { autoComplete: "address-level2", maxLength: 50 })}
            <Field id="w9-state" label="State" error={errors.state}>
              <Select
                id="w9-state"
                value={values.state}
                onChange={(e) => setValues({ ...values, state: e.target.value })}
                {...invalidProps("w9-state", errors.state)}
              >
                <option value="">Choose</option>
                {US_STATE_CODES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </Select>
            </Field>
            {text("zip", "w9-zip", "ZIP code", { autoComplete: "postal-code", inputMode: "numeric", maxLength: 10 })}
          </div>
          <fieldset className="space-y-3 rounded-lg border p-4">
            <legend className="px-1 text-sm font-medium">Certification</legend>
            <div className="space-y-1 text-xs text-muted-foreground">
              {W9_CERTIFICATION.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
            <div className="flex items-start gap-3">
              <Checkbox
                id="w9-certified"
                checked={values.certified}
                onCheckedChange={(c) => setValues({ ...values, certified: c === true })}
                {...invalidProps("w9-certified", errors.certified)}
              />
              <Label htmlFor="w9-certified" className="cursor-pointer">
                I certify the statements above under penalties of perjury
              </Label>
            </div>
            {errors.certified && (
              <p id="w9-certified-error" role="alert" className="text-sm text-destructive">
                {errors.certified}
              </p>
            )}
            {text("signatureName", "w9-signature", "Signature: type your legal name", { autoComplete: "name", maxLength: 100 })}
          </fieldset>
          <Button type="submit" disabled={file.isPending}>
            {file.isPending ? "Saving..." : "Sign and file W-9"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
