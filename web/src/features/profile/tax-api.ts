import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaxFormInput } from "@common/api/tax";
import { api, read } from "@/lib/api-client";
import { withStepUp } from "@/lib/step-up";

export const TAX_FORM_KEY = ["me", "tax-form"] as const;

/** Whether a W-9 is needed or on file; this year's prizes move with every win, so each visit refetches. */
export const useTaxStatus = () =>
  useQuery({ queryKey: TAX_FORM_KEY, queryFn: () => read(api.user["tax-form"].$get()), refetchOnMount: "always" });

/** Files a W-9 (it holds a TIN, so the server wants a step-up first); the answer is the new status. */
export function useFileTaxForm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TaxFormInput) => withStepUp(() => read(api.user["tax-form"].$post({ json: input }))),
    onSuccess: (status) => qc.setQueryData(TAX_FORM_KEY, status),
  });
}
