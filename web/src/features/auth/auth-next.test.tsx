import { describe, expect, it } from "vitest";
import { waitFor } from "@testing-library/react";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import AuthPage from "./auth-page";

describe("signing in from a link that says where to go next", () => {
  it("returns a signed-in player to that page of the site (Remind me sends visitors here)", async () => {
    fakeFetch({});
    const { location } = renderPage([{ path: "/auth", element: <AuthPage /> }], {
      at: "/auth?next=%2Ftournaments%3Fstatus%3Dupcoming",
      user: testUser(),
    });
    await waitFor(() => expect(location()).toBe("/tournaments?status=upcoming"));
  });

  it("never leaves the site: another origin goes home instead", async () => {
    fakeFetch({});
    const { location } = renderPage([{ path: "/auth", element: <AuthPage /> }], { at: "/auth?next=%2F%2Fevil.example", user: testUser() });
    await waitFor(() => expect(location()).toBe("/"));
  });
});
