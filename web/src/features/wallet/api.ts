import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SandboxConfirmInput, WithdrawalInput } from "@common/api/money";
import type { User } from "@common/api/types";
import { USER_KEY } from "@/lib/session";
import { api, idempotent, read } from "@/lib/api-client";
import { withStepUp } from "@/lib/step-up";

export const TRANSACTIONS_KEY = ["me", "transactions"] as const;
export const WALLET_KEY = ["me", "wallet"] as const;

/** GET /api/wallet: the balance, what of it can be withdrawn now and why the rest is held; refetched on every visit, since fees and prizes move it. */
export const useWallet = () =>
  useQuery({ queryKey: WALLET_KEY, queryFn: () => read(api.wallet.$get()), refetchOnMount: "always", retry: false });

export const transactionsQuery = () => queryOptions({ queryKey: TRANSACTIONS_KEY, queryFn: () => read(api.user.transactions.$get()) });

/** Which card form to show and the deposit limits. */
export { usePublicConfig as usePaymentConfig } from "@/lib/config";

/** The signed-in user's ledger, newest first; entry fees and prizes land here from elsewhere, so every visit refetches. */
export const useTransactions = () => useQuery({ ...transactionsQuery(), refetchOnMount: "always" });

/** One checkout visit's key: however often it is sent, the server makes one PaymentIntent. */
export const createPaymentIntent = (amount: number, idempotencyKey: string) =>
  read(api["create-payment-intent"].$post({ json: { amount } }, idempotent(idempotencyKey)));

/** The sandbox provider's card step (declined cards answer 402 with the provider's message). */
export const useSandboxConfirm = () =>
  useMutation({ mutationFn: (input: SandboxConfirmInput) => read(api.sandbox["confirm-payment"].$post({ json: input })) });

/** GET /api/payment-intent: status and amount as the provider reports them. */
export const usePaymentIntent = (clientSecret: string | null) =>
  useQuery({
    queryKey: ["payment-intent", clientSecret],
    queryFn: () => read(api["payment-intent"].$get({ query: { clientSecret: clientSecret ?? "" } })),
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
    void qc.invalidateQueries({ queryKey: WALLET_KEY });
  };
}

/** POST /api/deposit/confirm; the server credits a payment once, however often this is sent. */
export function useConfirmDeposit() {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: (input: { paymentIntentId: string; amount: number }) => read(api.deposit.confirm.$post({ json: input })),
    onSuccess: (res) => refresh(res.balance),
  });
}

/** POST /api/withdrawal/confirm with the confirm visit's key: pressing again after a failure cannot withdraw twice. */
export function useConfirmWithdrawal(idempotencyKey: string) {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: (input: WithdrawalInput) =>
      withStepUp(() => read(api.withdrawal.confirm.$post({ json: input }, idempotent(idempotencyKey)))),
    onSuccess: (res) => refresh(res.balance),
  });
}

/** POST /api/user/email/verify/resend: a new verification link to the account's address. */
export const useResendVerification = () => useMutation({ mutationFn: () => read(api.user.email.verify.resend.$post()) });
