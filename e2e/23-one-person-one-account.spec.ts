// Journey 23: one person, one account. A player verifies their identity; a second account of the
// same person (the same document) verifies too and is linked to the first: the profile says so,
// and a deposit is refused with the message; a paid entry is refused, a free one is open
// (docs/identity-and-tax.md).
import { IDENTITY } from "../common/messages";
import {
  createAccount,
  createTournament,
  expect,
  freshDocumentNumber,
  signIn,
  test,
  verifyIdentityByApi,
  verifyIdentityInSandbox,
} from "./fixtures";

test("a second account of a verified person is refused money actions, with the message shown", async ({ page, context }) => {
  test.setTimeout(120_000);
  const documentNumber = freshDocumentNumber();
  const first = await createAccount("first");
  await verifyIdentityByApi(first, { firstName: "Grace", lastName: "Hopper", documentNumber });

  const second = await createAccount("second");
  await signIn(context, second);
  await verifyIdentityInSandbox(page, { firstName: "Grace", lastName: "Hopper", documentNumber: documentNumber.toLowerCase() });
  await expect(page.getByText(IDENTITY.duplicateNote)).toBeVisible();

  // A deposit: the checkout shows the refusal.
  await page.goto("/checkout/10");
  await expect(page.getByRole("heading", { name: "Payment Error" })).toBeVisible();
  await expect(page.getByText(IDENTITY.duplicateAccount)).toBeVisible();

  // Paid play refused, free play open.
  const paid = await createTournament({ entryFee: 5, isFree: false, startsInMs: 3_600_000 });
  const refused = await second.api.post(`/api/tournaments/${paid.id}/join`, { headers: { "Idempotency-Key": crypto.randomUUID() } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("identity_duplicate_account");
  const free = await createTournament({ startsInMs: 3_600_000 });
  const joined = await second.api.post(`/api/tournaments/${free.id}/join`, { headers: { "Idempotency-Key": crypto.randomUUID() } });
  expect(joined.ok(), await joined.text()).toBe(true);

  // The first account keeps its money actions.
  const intent = await first.api.post("/api/create-payment-intent", {
    data: { amount: 10 },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(intent.ok(), await intent.text()).toBe(true);
});
