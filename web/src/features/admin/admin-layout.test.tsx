// The console's guard as a person meets it: a player is told it is for operators, an operator
// without 2FA is sent to turn it on, an operator with 2FA gets the navigation and the screen.
import { beforeEach, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { ADMIN_CONSOLE } from "@common/messages";
import { renderPage, testUser } from "@/test/render-page";
import { fakeFetch } from "@/test/fake-fetch";
import { Navbar } from "@/app/layout/navbar";
import AdminLayout from "./admin-layout";

const routes = [{ path: "/admin", element: <AdminLayout />, children: [{ index: true, element: <p>the overview</p> }] }];

describe("the console's guard", () => {
  it("shows a player 'Operators only' and not the screen", async () => {
    renderPage(routes, { at: "/admin", user: testUser({ role: "player" }) });
    expect(await screen.findByText(ADMIN_CONSOLE.operatorsOnlyTitle)).toBeInTheDocument();
    expect(screen.getByText(ADMIN_CONSOLE.operatorsOnly)).toBeInTheDocument();
    expect(screen.queryByText("the overview")).not.toBeInTheDocument();
  });

  it("tells an operator without 2FA to turn it on, with the link to the security settings", async () => {
    renderPage(routes, { at: "/admin", user: testUser({ role: "admin", twoFactorEnabled: false }) });
    expect(await screen.findByText(ADMIN_CONSOLE.twoFactorRequired)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: ADMIN_CONSOLE.twoFactorAction })).toHaveAttribute("href", "/profile?tab=security");
    expect(screen.queryByText("the overview")).not.toBeInTheDocument();
  });

  it("lets an operator with 2FA in: the console's navigation and the screen", async () => {
    renderPage(routes, { at: "/admin", user: testUser({ role: "admin", twoFactorEnabled: true }) });
    expect(await screen.findByText("the overview")).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Console" })).toBeInTheDocument();
  });

  it("sends a signed-out visitor to sign in, and back to the console after", async () => {
    const page = renderPage(routes, { at: "/admin", user: null });
    expect(await screen.findByTestId("location")).toHaveTextContent("/auth");
    expect(page.location()).toBe("/auth?next=%2Fadmin");
  });
});

describe("the Console link", () => {
  const nav = [{ path: "/", element: <Navbar /> }];
  // The notification bell asks for the unread count; nothing else is needed here.
  beforeEach(() => fakeFetch({}));

  it("is in the navbar for an operator", async () => {
    renderPage(nav, { at: "/", user: testUser({ role: "admin", twoFactorEnabled: true }) });
    const links = await screen.findAllByRole("link", { name: "Console" });
    expect(links[0]).toHaveAttribute("href", "/admin");
  });

  it("is not there for a player", async () => {
    renderPage(nav, { at: "/", user: testUser({ role: "player" }) });
    await screen.findAllByRole("link", { name: "Dashboard" });
    expect(screen.queryByRole("link", { name: "Console" })).not.toBeInTheDocument();
  });
});
