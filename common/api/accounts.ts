// Request schemas of the accounts API, shared by the Worker (validation) and the web forms.
import { z } from "zod";
import { VALIDATION as V } from "../messages";
import { LEGAL } from "../legal-messages";
import { EMAIL_MAX, PASSWORD_MIN_CHANGE, PASSWORD_MIN_LOGIN, USERNAME_MAX, USERNAME_MIN } from "../spec";
import { turnstileTokenSchema } from "./params";

const trimmed = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

export const socialLinksSchema = z
  .object({
    twitter: trimmed(200).optional(),
    facebook: trimmed(200).optional(),
    instagram: trimmed(200).optional(),
    linkedin: trimmed(200).optional(),
    github: trimmed(200).optional(),
  })
  .strict();
export type SocialLinks = z.infer<typeof socialLinksSchema>;

export const preferencesSchema = z
  .object({
    theme: z.enum(["light", "dark", "system"]).optional(),
    showLevel: z.boolean().optional(),
    showWins: z.boolean().optional(),
    showSocial: z.boolean().optional(),
    /** false: no email for "Remind me" reminders (the in-app notification still comes). Absent: on. */
    eventReminderEmails: z.boolean().optional(),
  })
  .strict();
export type Preferences = z.infer<typeof preferencesSchema>;

/** Avatars are small data-URL images (the web app resizes before upload). */
export const avatarSchema = z
  .string()
  .max(200_000, "Avatar image is too large")
  .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/, "Avatar must be a PNG, JPEG, WebP or GIF image");

/** socialLinks may arrive text-encoded (a JSON string) or as the object itself. */
const socialLinksInput = z.union([
  socialLinksSchema,
  z.string().transform((s, ctx) => {
    if (s.trim() === "") return {};
    try {
      return socialLinksSchema.parse(JSON.parse(s));
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid social links" });
      return z.NEVER;
    }
  }),
]);

/** ISO 3166-1 alpha-2, as Cloudflare reports a visitor's country; null clears it. */
export const countrySchema = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, "Country must be a two-letter country code such as US or DE"));

const username = z
  .string()
  .trim()
  .min(USERNAME_MIN, V.usernameMin)
  .max(USERNAME_MAX, V.usernameMax)
  .regex(/^[A-Za-z0-9_.-]+$/, "Username may contain only letters, digits, '.', '_' and '-'.");
const email = z.string().trim().max(EMAIL_MAX, V.emailMax).email(V.emailInvalid);

export const loginSchema = z.object({
  username: z.string().trim().min(USERNAME_MIN, V.usernameMin).max(USERNAME_MAX, V.usernameMax),
  password: z.string().min(PASSWORD_MIN_LOGIN, V.passwordMinLogin).max(200),
  /** Present on the second step when two-factor authentication is on. */
  totpCode: z.string().trim().max(20).optional(),
  /** A Turnstile token solved for "login": needed once the account is past its budget of wrong passwords (bot_check_required). */
  turnstileToken: z.string().max(2048).optional(),
});

export const registerSchema = z.object({
  username,
  email,
  password: z.string().min(PASSWORD_MIN_LOGIN, V.passwordMinLogin).max(200),
  avatar: avatarSchema.nullish(),
  bio: trimmed(500).nullish(),
  location: trimmed(100).nullish(),
  socialLinks: socialLinksInput.nullish(),
  preferences: preferencesSchema.nullish(),
  turnstileToken: turnstileTokenSchema,
  /** The sign-up's checkbox: the versions in force are recorded as accepted (docs/player-data.md). Last, so other fields' rules are told first. */
  acceptTerms: z.literal(true, { error: LEGAL.mustAgree }),
});

/** The client-side form adds the confirmation, which is never sent. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: V.passwordsDontMatch, path: ["confirmPassword"] });

export const profileUpdateSchema = z.object({
  username,
  email,
  bio: trimmed(500).nullish(),
  location: trimmed(100).nullish(),
  socialLinks: socialLinksInput.nullish(),
  avatar: avatarSchema.nullish(),
  preferences: preferencesSchema.nullish(),
  country: countrySchema.nullish(),
});

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, V.currentPasswordRequired).max(200),
    newPassword: z.string().min(PASSWORD_MIN_CHANGE, V.newPasswordMin).max(200),
    /** The dashboard form sends it; the profile page does not. */
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: V.newPasswordsDontMatch,
    path: ["confirmPassword"],
  });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.input<typeof registerSchema>;
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;
