// The public example values of `.dev.vars.example` that a deployment must never keep
// (worker/http/insecure-secrets.ts refuses to serve with them; scripts/deploy-plan.test.ts checks
// they match the file). No imports: the deploy script's tests read it under Node.
export const EXAMPLE_SECRETS = {
  RECEIPT_SECRET: "local-development-receipt-secret",
  DATA_ENCRYPTION_KEYS: "dev1:U1BXbmLumcwZPNIlc85XyX4raFIXmbeWbNqxyjFu+Nw=",
} as const;
