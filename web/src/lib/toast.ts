import { toast as sonner } from "sonner";

/** Toasts: a title and an optional description; destructive ones for failures. */
export const toast = {
  success: (title: string, description?: string) => sonner.success(title, { description }),
  info: (title: string, description?: string) => sonner(title, { description }),
  error: (title: string, description?: string) => sonner.error(title, { description }),
};
