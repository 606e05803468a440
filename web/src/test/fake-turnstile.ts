// A stand-in for Cloudflare Turnstile's global (`window.turnstile`) in component tests: records
// each widget rendered and lets the test solve it, as the real challenge would.
import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { TurnstileApi } from "@/components/turnstile-widget";

type RenderOptions = Parameters<TurnstileApi["render"]>[1];

export function fakeTurnstile() {
  const widgets: { id: string; container: HTMLElement; options: RenderOptions; removed: boolean }[] = [];
  const api = {
    render: vi.fn((container: HTMLElement, options: RenderOptions) => {
      const id = `widget-${widgets.length + 1}`;
      widgets.push({ id, container, options, removed: false });
      return id;
    }),
    reset: vi.fn((_id: string) => {}),
    remove: vi.fn((id: string) => {
      const w = widgets.find((x) => x.id === id);
      if (w) w.removed = true;
    }),
  } satisfies TurnstileApi;
  vi.stubGlobal("turnstile", api);
  const live = () => widgets.filter((w) => !w.removed);
  return {
    api,
    /** Widgets on the page now. */
    live,
    /** The check passes: the widget on the page hands its callback a token. */
    solve: (token: string) =>
      act(() => {
        const w = live().at(-1);
        if (!w) throw new Error("no Turnstile widget on the page");
        w.options.callback(token);
      }),
  };
}

/** Turnstile's script tag, if anything added it to the page. */
export const turnstileScript = () => document.querySelector('script[src*="challenges.cloudflare.com"]');
