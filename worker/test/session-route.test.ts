// GET /api/session, the web app's "who is signed in": a visitor is an answer (200, user null), so
// a visitor's browser logs no failed request; GET /api/user keeps its 401 for API clients.
import { describe, expect, it } from "vitest";
import { call, registerUser } from "./helpers";

describe("GET /api/session", () => {
  it("answers 200 with no user for a visitor, while GET /api/user still refuses with 401", async () => {
    const visitor = await call("/api/session");
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ user: null });
    const user = await call("/api/user");
    expect(user.status).toBe(401);
    expect(user.body.code).toBe("not_authenticated");
  });

  it("answers the signed-in user, the same as GET /api/user, avatar included", async () => {
    const { cookie, user } = await registerUser();
    const avatar = "data:image/png;base64,iVBORw0KGgo=";
    expect(
      (await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: user.email, avatar } })).status,
    ).toBe(200);
    const session = await call("/api/session", { cookie });
    expect(session.status).toBe(200);
    expect(session.body.user).toEqual((await call("/api/user", { cookie })).body);
    expect(session.body.user).toMatchObject({ id: user.id, username: user.username, avatar });
  });

  it("answers no user once the session has ended", async () => {
    const { cookie } = await registerUser();
    expect((await call("/api/logout", { method: "POST", cookie })).status).toBe(200);
    expect((await call("/api/session", { cookie })).body).toEqual({ user: null });
  });
});
