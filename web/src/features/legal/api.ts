// The legal documents' texts (GET /api/legal/:doc), as in force on this deployment.
import { useQuery } from "@tanstack/react-query";
import type { LegalDocumentId } from "@common/legal/legal-catalog";
import { api, read } from "@/lib/api-client";

export const useLegalDocument = (doc: LegalDocumentId) =>
  useQuery({ queryKey: ["legal", doc], queryFn: () => read(api.legal[":doc"].$get({ param: { doc } })) });
