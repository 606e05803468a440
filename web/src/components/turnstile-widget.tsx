// Cloudflare Turnstile, the optional bot check of registration and paid joins. Its script is
// loaded only when a form renders the widget, which it does only when the deployment publishes a
// site key (GET /api/config); with the check off nothing of Turnstile reaches the page.
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { FAIR_PLAY } from "@common/messages";
import { usePublicConfig } from "@/lib/config";

const SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/** What the page uses of Turnstile's global (`window.turnstile`). */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      action: string;
      callback: (token: string) => void;
      "expired-callback": () => void;
      "error-callback": () => void;
    },
  ): string | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** Adds Turnstile's script once; a failed load may be tried again by the next widget. */
function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT_URL;
    script.async = true;
    script.addEventListener("load", () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("Turnstile did not start"))));
    script.addEventListener("error", () => reject(new Error("Turnstile could not be loaded")));
    document.head.appendChild(script);
  }).catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** The site key while the bot check is on, else null (also while the config is loading). */
export const useBotCheckSiteKey = (): string | null => usePublicConfig().data?.turnstileSiteKey ?? null;

export interface TurnstileHandle {
  /** A token is good for one request: after a refusal the player solves the check again. */
  reset(): void;
}

interface Props {
  siteKey: string;
  /** Told to siteverify, which the Worker checks against the form the token was sent with. */
  action: "register" | "join" | "login";
  /** The token once the check passes; null when it expires, fails or is reset. */
  onToken: (token: string | null) => void;
  ref?: Ref<TurnstileHandle>;
}

/** Renders the widget explicitly into its own box. */
export function TurnstileWidget({ siteKey, action, onToken, ref }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const tokenTo = useRef(onToken);
  tokenTo.current = onToken;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadTurnstile().then(
      (api) => {
        if (cancelled || !box.current) return;
        const id = api.render(box.current, {
          sitekey: siteKey,
          action,
          callback: (token) => tokenTo.current(token),
          "expired-callback": () => tokenTo.current(null),
          "error-callback": () => tokenTo.current(null),
        });
        if (id !== undefined) widget.current = { api, id };
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      if (widget.current) widget.current.api.remove(widget.current.id);
      widget.current = null;
      tokenTo.current(null);
    };
  }, [siteKey, action]);

  useImperativeHandle(ref, () => ({
    reset: () => {
      tokenTo.current(null);
      if (widget.current) widget.current.api.reset(widget.current.id);
    },
  }));

  return (
    <div>
      <div ref={box} data-testid="turnstile" className="flex min-h-[65px] justify-center" />
      {failed && (
        <p role="alert" className="text-sm text-destructive">
          {FAIR_PLAY.botCheckUnavailable}
        </p>
      )}
    </div>
  );
}
