// User-facing texts that SPEC.md names, shared so the server and the client say the same thing.

export const VALIDATION = {
  usernameMin: "Username must be at least 3 characters.",
  passwordMinLogin: "Password must be at least 6 characters.",
  passwordsDontMatch: "Passwords don't match",
  emailInvalid: "Please enter a valid email.",
  currentPasswordRequired: "Current password is required.",
  newPasswordMin: "New password must be at least 8 characters.",
  confirmPasswordRequired: "Please confirm your new password.",
  newPasswordsDontMatch: "Passwords don't match.",
  // Profile-page variants.
  profileUsernameMin: "Username must be at least 3 characters",
  profileEmailInvalid: "Invalid email address",
  profileCurrentPasswordRequired: "Current password is required",
  profilePasswordMin: "Password must be at least 8 characters long",
  profileConfirmRequired: "Please confirm your password",
  profilePasswordsMismatch: "Passwords do not match",
  amountRequired: "Amount is required",
  amountPositive: "Amount must be a positive number",
  amountAboveBalance: "Cannot withdraw more than your available balance",
  methodRequired: "Please select a withdrawal method",
} as const;

export const AUTH = {
  usernameTaken: "Username already exists",
  emailTaken: "Email already registered",
  invalidCredentials: "Invalid username or password",
  notAuthenticated: "Not authenticated",
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  currentPasswordWrong: "Current password is incorrect",
  twoFactorRequired: "Two-factor code required",
  twoFactorInvalid: "Invalid two-factor code",
} as const;

export const JOIN = {
  authRequired: { title: "Authentication required", description: "Please log in to join tournaments." },
  levelTitle: "Level requirement not met",
  levelDescription: (minLevel: number) => `You need to be level ${minLevel} to join this tournament.`,
  full: { title: "Tournament is full", description: "This tournament has reached its maximum number of participants." },
  balanceTitle: "Insufficient balance",
  balanceDescription: (shortfall: string, fee: string) =>
    `You need $${shortfall} more to join this tournament. Full entry fee: $${fee}.`,
  failedTitle: "Failed to join tournament",
} as const;
