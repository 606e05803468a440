// Optional knobs that wrangler.toml leaves unset (tests and operators may set them).
interface Env {
  /** scrypt cost N; tests lower it. */
  SCRYPT_N?: string;
  LOGIN_LIMIT_PER_IP?: string;
  REGISTER_LIMIT_PER_IP?: string;
  /**
   * Where the Stripe SDK sends API requests, when not api.stripe.com:443 over https (for
   * example a local Stripe-speaking test server). Unset in production.
   */
  STRIPE_API_HOST?: string;
  STRIPE_API_PORT?: string;
  STRIPE_API_PROTOCOL?: string;
}

declare namespace Cloudflare {
  interface Env {
    /** Only in the test pool: the migrations folder, read by vitest.config.ts. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
