// A tournament's Featured setting in the console (docs/featured-events.md): feature an upcoming
// tournament that starts at least 7 days from now, optionally with its registration time, or
// unfeature it. Each change is audited; the server refuses with its own words.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminTournamentDetail } from "@common/api/admin-tournaments";
import { api, read } from "@/lib/api-client";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { adminTournamentKeys } from "./api";

function useSetFeatured(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: { featured: boolean; registrationOpensAt?: string }) =>
      read(api.admin.tournaments[":id"].featured.$put({ param: { id: String(id) }, json })),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminTournamentKeys.all }),
  });
}

export function FeaturedSetting({ tournament: t }: { tournament: AdminTournamentDetail }) {
  const set = useSetFeatured(t.id);
  const [opens, setOpens] = useState("");
  const done = (featured: boolean) => ({
    onSuccess: () => toast.success(featured ? "Featured event announced" : "No longer featured"),
    onError: (e: unknown) => toast.error("Not changed", errorMessage(e)),
  });
  return (
    <section aria-label="Featured event" className="space-y-2 rounded-lg border p-4">
      <h2 className="text-lg font-semibold">Featured event</h2>
      {t.featuredAt ? (
        <>
          <p className="text-sm">
            Announced {new Date(t.featuredAt).toLocaleString()}; registration opens for everyone{" "}
            {t.registrationOpensAt ? new Date(t.registrationOpensAt).toLocaleString() : ""}, for level 6+ 24 hours earlier.
          </p>
          <Button variant="outline" disabled={set.isPending} onClick={() => set.mutate({ featured: false }, done(false))}>
            Unfeature
          </Button>
        </>
      ) : (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            set.mutate({ featured: true, ...(opens ? { registrationOpensAt: new Date(opens).toISOString() } : {}) }, done(true));
          }}
        >
          <p className="text-sm text-muted-foreground">
            Shown on home and the tournaments page with "Remind me". Only for a start at least 7 days away.
          </p>
          <Field id="f-registration-opens" label="Registration opens for everyone (empty: 72 hours before the start)">
            <Input id="f-registration-opens" type="datetime-local" value={opens} onChange={(e) => setOpens(e.target.value)} />
          </Field>
          <Button type="submit" disabled={set.isPending}>
            Feature this event
          </Button>
        </form>
      )}
      {set.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(set.error)}
        </p>
      )}
    </section>
  );
}
