// A socket the server closed because the session ended (logout elsewhere, a password change,
// account deletion): the app checks its session, goes to the sign-in page without one, and
// reconnects when this tab is still signed in (its own password change rotated the cookie).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act } from "@testing-library/react";
import { SESSION_ENDED_CLOSE_CODE } from "@common/spec";
import type { NotificationFrame } from "@common/api/tournaments";
import NotificationCenter from "@/features/notifications/components/notification-center";
import { fakeFetch } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { renderPage, testUser } from "@/test/render-page";

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
let signedIn = true;

async function mount() {
  const page = renderPage([{ path: "/dashboard", element: <NotificationCenter user={{ id: 7 }} /> }], { at: "/dashboard" });
  await advance(0);
  act(() => FakeWebSocket.latest().open());
  await advance(0);
  return page;
}

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
  signedIn = true;
  fakeFetch({
    "GET /api/notifications": () => ({ body: { unread: 0, items: [] as NotificationFrame[] } }),
    "GET /api/user": () =>
      signedIn ? { body: testUser() } : { status: 401, body: { code: "not_authenticated", message: "Not authenticated" } },
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a socket closed with the signed-out code", () => {
  it("sends a signed-out player to the sign-in page and drops the cached user", async () => {
    const page = await mount();
    const sockets = FakeWebSocket.instances.length;
    signedIn = false;
    act(() => FakeWebSocket.latest().drop(SESSION_ENDED_CLOSE_CODE));
    await advance(0);
    expect(page.location()).toBe("/auth");
    expect(page.queryClient.getQueryData(["session"])).toBeNull();
    await advance(60_000);
    expect(FakeWebSocket.instances).toHaveLength(sockets);
  });

  it("reconnects at once when this tab's session is still open", async () => {
    const page = await mount();
    const sockets = FakeWebSocket.instances.length;
    act(() => FakeWebSocket.latest().drop(SESSION_ENDED_CLOSE_CODE));
    await advance(0);
    expect(page.location()).toBe("/dashboard");
    expect(FakeWebSocket.instances).toHaveLength(sockets + 1);
  });
});
