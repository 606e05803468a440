/**
 * The result page's address, the same one Stripe's return_url produces, so both providers
 * land on /payment-success the same way.
 */
export const paymentSuccessUrl = (paymentIntentId: string, clientSecret: string) =>
  `/payment-success?${new URLSearchParams({ payment_intent: paymentIntentId, payment_intent_client_secret: clientSecret, redirect_status: "succeeded" })}`;
