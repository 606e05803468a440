// A short mail to the account's address on every security change, whatever else the route does;
// mailing runs after the answer and its failure never undoes the action (provider path: worker-email).
import { describe, expect, it } from "vitest";
import { totpCode } from "../auth/totp";
import { call, cookieFrom, registerUser } from "./helpers";
import { fund, PAST_HOLD, withdraw } from "./money-helpers";
import { markSteppedUp } from "./session-helpers";
import { verifyIdentity } from "./identity-helpers";
import { mailsTo, verifyEmail, waitForMail } from "./email-helpers";

describe("security notices", () => {
  it("a password change in the profile", async () => {
    const { cookie, user, password } = await registerUser();
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: password, newPassword: "changed-pass-1" },
    });
    expect(res.status, res.text).toBe(200);
    const mail = await waitForMail(user.email, "password_changed");
    expect(mail.to_address).toBe(user.email);
    expect(mail.subject).toBe("Your Trivia Arena password was changed");
    expect(mail.text_body).toContain(`Hi ${user.username},`);
  });

  it("no notice for a refused password change", async () => {
    const { cookie, user } = await registerUser();
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: "wrong-one", newPassword: "changed-pass-1" },
    });
    expect(res.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailsTo(user.email, "password_changed")).toEqual([]);
  });

  it("two-factor turned on, then off", async () => {
    const { cookie, user, password } = await registerUser();
    await markSteppedUp(user.id);
    const setup = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    const enable = await call("/api/user/2fa/enable", { cookie, body: { code: totpCode(setup.body.secret, Date.now()) } });
    expect(enable.status, enable.text).toBe(200);
    expect((await waitForMail(user.email, "two_factor_enabled")).subject).toBe("Two-factor authentication is on");

    // Enabling 2FA rotated the session: the browser now holds the new token.
    const rotated = cookieFrom(enable.setCookie);
    const disable = await call("/api/user/2fa/disable", { cookie: rotated, body: { password, code: enable.body.recoveryCodes[0] } });
    expect(disable.status, disable.text).toBe(200);
    expect((await waitForMail(user.email, "two_factor_disabled")).subject).toBe("Two-factor authentication is off");
  });

  it("a withdrawal requested: amount, last 4 digits, when, and what to do if it wasn't you", async () => {
    const { cookie, user } = await registerUser();
    await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    await markSteppedUp(user.id);
    await verifyEmail(user.id);
    await verifyIdentity(cookie);
    const res = await withdraw(cookie, 12.5);
    expect(res.status, res.text).toBe(200);
    const mail = await waitForMail(user.email, "withdrawal_requested");
    expect(mail.subject).toBe("Withdrawal of $12.50 requested");
    expect(mail.text_body).toContain("ending in 6789");
    expect(mail.text_body).toContain(new Date(Date.parse(res.body.payout.createdAt)).toUTCString());
    expect(mail.text_body).toContain("If this wasn't you");
    expect(mail.text_body).not.toContain("000123456789");
  });
});
