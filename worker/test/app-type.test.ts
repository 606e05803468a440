// The client the web app builds with `hc<AppType>`, driven against the Worker itself. The type
// check is half the test: wrong inputs must not compile (the @ts-expect-error lines), responses
// must carry their types, so a route that stops being typed fails `npm run typecheck`.
import { exports } from "cloudflare:workers";
import { hc } from "hono/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ApiErrorBody } from "../../common/api/errors";
import type { PublicConfig } from "../../common/api/money";
import type { JoinResult, TournamentDetail, TournamentPage } from "../../common/api/tournaments";
import type { Category } from "../../common/api/types";
import type { AppType } from "../app";
import { ORIGIN } from "./helpers";
import { makeCategory, makePlayer, makeTournament } from "./tournament-fixtures";

const client = (cookie?: string) =>
  hc<AppType>(ORIGIN, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init)),
    headers: cookie ? { origin: ORIGIN, cookie } : { origin: ORIGIN },
  });

describe("hc<AppType>", () => {
  it("types reads by their routes: config, categories, the tournament list and one tournament", async () => {
    const category = await makeCategory();
    const t = await makeTournament(category);
    const api = client().api;

    const config = await (await api.config.$get()).json();
    expectTypeOf(config).toEqualTypeOf<PublicConfig>();
    expect(config.paymentProvider).toBe("sandbox");

    const categories = await (await api.categories.$get()).json();
    expectTypeOf(categories).toEqualTypeOf<Category[]>();
    expect(categories.find((c) => c.id === category.id)?.activeTournaments).toBe(1);

    const page = await (await api.tournaments.$get({ query: { categoryId: String(category.id) } })).json();
    expectTypeOf(page).toEqualTypeOf<TournamentPage>();
    expect(page.items.map((i) => i.id)).toEqual([t.id]);

    const res = await api.tournaments[":id"].$get({ param: { id: String(t.id) } });
    const detail = await res.json();
    expectTypeOf(detail).toEqualTypeOf<TournamentDetail>();
    expect(detail).toMatchObject({ id: t.id, questionCount: 10, joined: false });
  });

  it("types a validated body and reports refusals as { code, message }", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    const api = client(p.cookie).api;

    const joined = await api.tournaments[":id"].join.$post({ param: { id: String(t.id) }, json: {} });
    expectTypeOf(await joined.json()).toEqualTypeOf<JoinResult>();
    expect(joined.status).toBe(200);

    const refused = await api.tournaments[":id"].answer.$post({
      param: { id: String(t.id) },
      json: { questionId: t.questions[0]!.id, answer: "x" },
    });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as unknown as ApiErrorBody;
    expect(body.code).toBe("not_live");
  });

  it("refuses wrong inputs at compile time", () => {
    const api = client().api;
    const compileOnly = () => {
      // @ts-expect-error an answer names its question
      void api.tournaments[":id"].answer.$post({ param: { id: "1" }, json: { answer: "x" } });
      // @ts-expect-error a withdrawal needs the method and the bank account
      void api.withdrawal.confirm.$post({ json: { amount: 5 } });
      // @ts-expect-error the id is a path parameter
      void api.tournaments[":id"].$get({});
      // @ts-expect-error there is no such route
      void api.tournaments[":id"].cancel.$post({ param: { id: "1" } });
    };
    expect(typeof compileOnly).toBe("function");
  });
});
