// A socket the server closed because the session ended (logout elsewhere, a password change,
// account deletion): the app checks its session, goes to the sign-in page without one, and
// reconnects when this tab is still signed in (its own password change rotated the cookie).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { SESSION_ENDED_CLOSE_CODE } from "@common/spec";
import type { NotificationFrame } from "@common/api/tournaments";
import NotificationCenter from "@/features/notifications/components/notification-center";
import { useChangePassword } from "@/features/profile/api";
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
    "GET /api/session": () => ({ body: { user: signedIn ? testUser() : null } }),
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

describe("a signed-out close that this tab caused", () => {
  it("waits for the tab's own request (a password change) and reconnects once it has its new session", async () => {
    const change = deferred<{ status?: number; body?: unknown }>();
    const server = fakeFetch({
      "GET /api/notifications": () => ({ body: { unread: 0, items: [] as NotificationFrame[] } }),
      "GET /api/session": () => ({ body: { user: change.settled ? testUser() : null } }),
      "PATCH /api/user/password": () => change.promise,
    });
    const page = renderPage(
      [
        {
          path: "/dashboard",
          element: (
            <>
              <NotificationCenter user={{ id: 7 }} />
              <ChangePasswordButton />
            </>
          ),
        },
      ],
      { at: "/dashboard" },
    );
    await advance(0);
    act(() => FakeWebSocket.latest().open());
    await advance(0);
    const sockets = FakeWebSocket.instances.length;

    act(() => screen.getByRole("button", { name: "Change" }).click());
    await advance(0);
    // The server closes the sockets before its answer (with the new cookie) arrives.
    act(() => FakeWebSocket.latest().drop(SESSION_ENDED_CLOSE_CODE));
    await advance(0);
    expect(server.calls("GET /api/session")).toHaveLength(0);
    change.settled = true;
    change.resolve({ body: { message: "Password updated" } });
    await advance(0);
    expect(page.location()).toBe("/dashboard");
    expect(FakeWebSocket.instances).toHaveLength(sockets + 1);
  });
});

function ChangePasswordButton() {
  const change = useChangePassword();
  return <button onClick={() => change.mutate({ currentPassword: "secret123", newPassword: "brand-new-pass" })}>Change</button>;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve, settled: false };
}
