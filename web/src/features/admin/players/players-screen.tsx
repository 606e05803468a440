// The console's players: search by part of a username or email; each result opens the player's file.
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { formatDollars } from "@common/domain/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Loaded, Section } from "../components/section";
import { usePlayerSearch } from "./api";

export default function PlayersScreen() {
  const [text, setText] = useState("");
  const [q, setQ] = useState<string | null>("");
  const search = usePlayerSearch(q);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQ(text.trim());
  };
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Players</h1>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" role="search">
        <div className="min-w-0 flex-1 space-y-1">
          <Label htmlFor="player-search">Username or email</Label>
          <Input id="player-search" value={text} maxLength={254} onChange={(e) => setText(e.target.value)} />
        </div>
        <Button type="submit">Search</Button>
      </form>
      <Section title={q ? `Players matching “${q}”` : "Newest players"}>
        <Loaded query={search} empty={(d) => d.players.length === 0}>
          {(d) => (
            <ul className="divide-y divide-border">
              {d.players.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <Link to={`/admin/players/${p.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                      {p.username}
                    </Link>
                    <p className="break-all text-sm text-muted-foreground">{p.email}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <span>{formatDollars(p.balance)}</span>
                    {p.role === "admin" && <Badge variant="outline">Operator</Badge>}
                    {p.frozen && <Badge variant="destructive">Frozen</Badge>}
                    {p.suspended && <Badge variant="destructive">Suspended</Badge>}
                    {p.banned && <Badge variant="destructive">Banned</Badge>}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </Section>
    </div>
  );
}
