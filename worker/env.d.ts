// Optional knobs that wrangler.toml leaves unset (tests and operators may set them).
interface Env {
  /** scrypt cost N; tests lower it. */
  SCRYPT_N?: string;
  LOGIN_LIMIT_PER_IP?: string;
  LOGIN_LIMIT_PER_ACCOUNT?: string;
  REGISTER_LIMIT_PER_IP?: string;
}

declare namespace Cloudflare {
  interface Env {
    /** Only in the test pool: the migrations folder, read by vitest.config.ts. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
