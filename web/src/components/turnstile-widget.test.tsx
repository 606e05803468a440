import { afterEach, describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { FAIR_PLAY } from "@common/messages";
import { fakeTurnstile } from "@/test/fake-turnstile";
import { TurnstileWidget } from "./turnstile-widget";

/** The script the widget adds, kept off the page: the test plays the browser's load or failure. */
function captureScripts() {
  const added: HTMLScriptElement[] = [];
  vi.spyOn(document.head, "appendChild").mockImplementation(<T extends Node>(node: T) => {
    added.push(node as unknown as HTMLScriptElement);
    return node;
  });
  return added;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// One script per page: the loaded (or failed) script is remembered across renders, so the failure comes first.
describe("the Turnstile widget", () => {
  it("says so when the script cannot be loaded, and tries again on the next render", async () => {
    const scripts = captureScripts();
    const first = render(<TurnstileWidget siteKey="site-key-1" action="register" onToken={() => {}} />);
    await act(async () => {
      scripts[0]!.dispatchEvent(new Event("error"));
    });
    expect(await screen.findByText(FAIR_PLAY.botCheckUnavailable)).toBeVisible();
    first.unmount();
    render(<TurnstileWidget siteKey="site-key-1" action="register" onToken={() => {}} />);
    expect(scripts).toHaveLength(2);
    await act(async () => {
      scripts[1]!.dispatchEvent(new Event("error"));
    });
  });

  it("adds Turnstile's script for explicit rendering, then renders into its box", async () => {
    const scripts = captureScripts();
    const onToken = vi.fn();
    render(<TurnstileWidget siteKey="site-key-1" action="join" onToken={onToken} />);
    expect(scripts.map((s) => s.src)).toEqual(["https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"]);

    const turnstile = fakeTurnstile();
    await act(async () => {
      scripts[0]!.dispatchEvent(new Event("load"));
    });
    expect(turnstile.live()).toHaveLength(1);
    expect(turnstile.live()[0]!.options).toMatchObject({ sitekey: "site-key-1", action: "join" });
    expect(turnstile.live()[0]!.container).toBe(screen.getByTestId("turnstile"));
    turnstile.solve("token-1");
    expect(onToken).toHaveBeenLastCalledWith("token-1");
    act(() => turnstile.live()[0]!.options["expired-callback"]());
    expect(onToken).toHaveBeenLastCalledWith(null);
  });
});
