// Path parameters shared by several resources.
import { z } from "zod";

/** `/:id` of a tournament or a payout: a positive whole number. */
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, "Invalid id")
    .transform(Number)
    .refine((id) => id >= 1, "Invalid id"),
});
