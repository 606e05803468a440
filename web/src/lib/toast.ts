// Toasts: a title and an optional description; destructive ones for failures. The toast library
// loads with the first toast, not with the page (most visits show none); app/providers.tsx mounts
// its toaster from then on, and the toaster shows toasts raised before it mounted.
import { useSyncExternalStore } from "react";

type Sonner = typeof import("sonner");

let library: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<Sonner> {
  if (!library) {
    library = import("sonner");
    for (const listener of listeners) listener();
  }
  return library;
}

function show(kind: "success" | "info" | "error", title: string, description?: string) {
  void load().then(({ toast }) => (kind === "info" ? toast(title, { description }) : toast[kind](title, { description })));
}

export const toast = {
  success: (title: string, description?: string) => show("success", title, description),
  info: (title: string, description?: string) => show("info", title, description),
  error: (title: string, description?: string) => show("error", title, description),
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** True once a toast was raised: until then the page has no toaster and no toast library. */
export const useToastsWanted = () => useSyncExternalStore(subscribe, () => library !== null);
