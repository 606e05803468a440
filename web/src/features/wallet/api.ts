import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreatePaymentIntentResponse,
  DepositConfirmResponse,
  PaymentIntentSummary,
  SandboxConfirmInput,
  SandboxConfirmResponse,
  WithdrawalInput,
  WithdrawalResponse,
} from "@common/api/money";
import type { Transaction, User } from "@common/api/types";
import { USER_KEY } from "@/features/auth/api";
import { apiRequest } from "@/lib/api";

export const TRANSACTIONS_KEY = ["/api/user/transactions"] as const;

/** Which card form to show and the deposit limits. */
export { usePublicConfig as usePaymentConfig } from "@/lib/config";

/** The signed-in user's ledger, newest first; entry fees and prizes land here from elsewhere, so every visit refetches. */
export const useTransactions = () => useQuery<Transaction[]>({ queryKey: TRANSACTIONS_KEY, refetchOnMount: "always" });

export const createPaymentIntent = (amount: number, idempotencyKey: string) =>
  apiRequest<CreatePaymentIntentResponse>("POST", "/api/create-payment-intent", { amount, idempotencyKey });

/** The sandbox provider's card step (declined cards answer 402 with the provider's message). */
export const useSandboxConfirm = () =>
  useMutation({ mutationFn: (input: SandboxConfirmInput) => apiRequest<SandboxConfirmResponse>("POST", "/api/sandbox/confirm-payment", input) });

/** GET /api/payment-intent: status and amount as the provider reports them. */
export const usePaymentIntent = (clientSecret: string | null) =>
  useQuery<PaymentIntentSummary>({
    queryKey: ["/api/payment-intent", clientSecret],
    queryFn: () => apiRequest<PaymentIntentSummary>("GET", `/api/payment-intent?clientSecret=${encodeURIComponent(clientSecret ?? "")}`),
    enabled: clientSecret !== null,
    gcTime: 0,
  });

/** Puts the new balance in the cached user at once, then refetches the user and the ledger. */
function useRefreshWallet() {
  const qc = useQueryClient();
  return (balance: number) => {
    qc.setQueryData<User | null>(USER_KEY, (u) => (u ? { ...u, balance } : u));
    void qc.invalidateQueries({ queryKey: USER_KEY });
    void qc.invalidateQueries({ queryKey: TRANSACTIONS_KEY });
  };
}

/** POST /api/deposit/confirm; the server credits a payment once, however often this is sent. */
export function useConfirmDeposit() {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: (input: { paymentIntentId: string; amount: number }) => apiRequest<DepositConfirmResponse>("POST", "/api/deposit/confirm", input),
    onSuccess: (res) => refresh(res.balance),
  });
}

export function useConfirmWithdrawal() {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: (input: WithdrawalInput) => apiRequest<WithdrawalResponse>("POST", "/api/withdrawal/confirm", input),
    onSuccess: (res) => refresh(res.balance),
  });
}
