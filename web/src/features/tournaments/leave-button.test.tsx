import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { LeaveButton } from "./components/leave-button";

const t = { id: 42, title: "History Showdown", isFree: false, entryFee: 5 };

describe("the leave button", () => {
  it("keeps one Idempotency-Key per confirmation: pressing Leave again after a failure resends it, confirming again makes a new one", async () => {
    const api = fakeFetch({ "POST /api/tournaments/42/leave": () => ({ status: 502 }) });
    renderPage([{ path: "/t", element: <LeaveButton tournament={t} /> }], { at: "/t" });
    const keys = () => api.calls("POST /api/tournaments/42/leave").map((r) => r.headers.get("Idempotency-Key"));
    const pressLeave = async (times: number) => {
      fireEvent.click(screen.getByRole("button", { name: "Leave tournament" }));
      await vi.waitFor(() => expect(keys()).toHaveLength(times));
      await vi.waitFor(() => expect(screen.getByRole("button", { name: "Leave tournament" })).toBeEnabled());
    };

    fireEvent.click(screen.getByRole("button", { name: "Leave tournament" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent("$5.00 entry fee goes back");
    await pressLeave(1);
    expect(await screen.findByText("Could not leave the tournament")).toBeVisible();
    await pressLeave(2);
    fireEvent.click(screen.getByRole("button", { name: "Stay registered" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole("button", { name: "Leave tournament" }));
    await screen.findByRole("dialog");
    await pressLeave(3);
    const [a, b, c] = keys();
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBe(a);
    expect(c).toMatch(/^[0-9a-f-]{36}$/);
    expect(c).not.toBe(a);
  });
});
