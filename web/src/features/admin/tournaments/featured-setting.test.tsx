import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { AdminTournamentDetail } from "@common/api/admin-tournaments";
import { ADMIN_TOURNAMENTS } from "@common/console-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { FeaturedSetting } from "./featured-setting";

const operator = testUser({ role: "admin", twoFactorEnabled: true });

const detail = (o: Partial<AdminTournamentDetail> = {}): AdminTournamentDetail => ({
  id: 5,
  title: "Gala",
  description: "A special one.",
  categoryId: 3,
  categoryName: "History",
  entryFee: 0,
  prizePool: 100,
  maxParticipants: 500,
  currentParticipants: 0,
  minLevel: 1,
  startTime: "2030-01-10T18:00:00.000Z",
  endTime: "2030-01-10T18:30:00.000Z",
  status: "upcoming",
  imageUrl: null,
  isFree: true,
  kind: "standard",
  format: "self_paced",
  createdAt: "2029-12-01T10:00:00.000Z",
  houseFunded: true,
  featuredAt: null,
  registrationOpensAt: null,
  durationMinutes: 30,
  questionDraw: 3,
  questions: [],
  editable: true,
  ...o,
});

const show = (t: AdminTournamentDetail) =>
  renderPage([{ path: "/admin/tournaments/5", element: <FeaturedSetting tournament={t} /> }], {
    at: "/admin/tournaments/5",
    user: operator,
  });

describe("the console's Featured setting", () => {
  it("features the tournament, with the registration time when one is given", async () => {
    const api = fakeFetch({
      "PUT /api/admin/tournaments/5/featured": () => ({
        body: { tournamentId: 5, featured: true, announcedAt: "2029-12-20T10:00:00.000Z", registrationOpensAt: "2030-01-07T18:00:00.000Z" },
      }),
    });
    show(detail());
    fireEvent.change(screen.getByLabelText(/Registration opens for everyone/), { target: { value: "2030-01-06T12:00" } });
    fireEvent.click(screen.getByRole("button", { name: "Feature this event" }));
    await waitFor(() => expect(api.calls("PUT /api/admin/tournaments/5/featured")).toHaveLength(1));
    expect(api.calls("PUT /api/admin/tournaments/5/featured")[0]!.body).toEqual({
      featured: true,
      registrationOpensAt: new Date("2030-01-06T12:00").toISOString(),
    });
  });

  it("shows the server's refusal for a start less than a week away", async () => {
    const message = ADMIN_TOURNAMENTS.featureTooSoon("Thu, Jan 10, 2030, 18:00 UTC");
    fakeFetch({ "PUT /api/admin/tournaments/5/featured": () => ({ status: 400, body: { code: "featured_too_soon", message } }) });
    show(detail());
    fireEvent.click(screen.getByRole("button", { name: "Feature this event" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
  });

  it("unfeatures a featured tournament", async () => {
    const api = fakeFetch({
      "PUT /api/admin/tournaments/5/featured": () => ({
        body: { tournamentId: 5, featured: false, announcedAt: null, registrationOpensAt: null },
      }),
    });
    show(detail({ featuredAt: "2029-12-20T10:00:00.000Z", registrationOpensAt: "2030-01-07T18:00:00.000Z" }));
    fireEvent.click(screen.getByRole("button", { name: "Unfeature" }));
    await waitFor(() => expect(api.calls("PUT /api/admin/tournaments/5/featured")[0]?.body).toEqual({ featured: false }));
  });
});
