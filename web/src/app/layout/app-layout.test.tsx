// The app's frame as a visitor and as a player first see it: who is signed in comes from
// GET /api/session, which answers a visitor with no user (a 200, so the browser logs no failed
// request), and the signed-in menus load only for a player.
import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider } from "@/lib/theme";
import { fakeFetch } from "@/test/fake-fetch";
import { testUser } from "@/test/render-page";
import { AppLayout } from "./app-layout";

/** The layout around an empty page, with nothing cached: the session is asked for as on a first visit. */
function visit() {
  const router = createMemoryRouter([{ element: <AppLayout />, children: [{ path: "/", element: <p>page</p> }] }], {
    initialEntries: ["/"],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

describe("the app's frame", () => {
  it("asks a visitor's session from GET /api/session, never GET /api/user, and offers sign-in", async () => {
    const server = fakeFetch({ "GET /api/session": () => ({ body: { user: null } }) });
    visit();
    expect(await within(screen.getByRole("banner")).findByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
    expect(server.calls("GET /api/session")).toHaveLength(1);
    expect(server.calls("GET /api/user")).toHaveLength(0);
    expect(screen.queryByRole("button", { name: /Notifications/ })).not.toBeInTheDocument();
  });

  it("shows a signed-in player's bell and account menu once the session names them", async () => {
    const server = fakeFetch({
      "GET /api/session": () => ({ body: { user: testUser({ username: "quiz_master" }) } }),
      "GET /api/notifications": () => ({ body: { unread: 2, items: [] } }),
    });
    visit();
    expect(await screen.findByRole("button", { name: "Notifications (2 unread)" })).toBeVisible();
    expect(screen.getByRole("button", { name: "Account menu" })).toHaveTextContent("quiz_master");
    expect(within(screen.getByRole("banner")).queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
    expect(server.calls("GET /api/user")).toHaveLength(0);
  });
});
