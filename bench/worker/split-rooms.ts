// The bench's two-process sharded show (bench/run.ts, twoProcessScenario): the same bench Worker
// served by two `wrangler dev` sessions on one local D1. Session A holds the coordinator and the
// even play shards, session B the odd ones; each binds the other's TournamentRoom class through
// wrangler's dev registry (BENCH_OTHER_ROOMS, a binding with `script_name`). The production code
// asks `env.TOURNAMENT_ROOM` for every room by name (worker/durable/room-client.ts); this wrapper
// answers with the namespace of the process that holds that name, so neither the Worker nor the
// rooms know they are split. Absent BENCH_OTHER_ROOMS (every other bench row), env is unchanged.

/** `{t}:shard:{k}` with k odd: the rooms session B holds (the name format of worker/durable/room-client.ts's shardName). */
export function oddShard(name: string): boolean {
  const m = /^\d+:shard:(\d+)$/.exec(name);
  return m !== null && Number(m[1]) % 2 === 1;
}

interface SplitBindings {
  TOURNAMENT_ROOM: DurableObjectNamespace;
  /** The other session's TournamentRoom class, bound with script_name (only in the two-process row). */
  BENCH_OTHER_ROOMS?: DurableObjectNamespace;
  /** "1" in session B (the odd shards are its own), anything else in session A. */
  BENCH_ODD_SHARDS_HERE?: string;
}

/**
 * A namespace that picks the real one by the name: ids from `idFromName` remember which namespace
 * made them, since a stub can only be made by the namespace its id came from. Both namespaces give
 * the same id for a name (the dev registry's proxy class uses the target class's unique key), so a
 * shard reached from either session is one object.
 */
function splitNamespace(local: DurableObjectNamespace, other: DurableObjectNamespace, oddHere: boolean): DurableObjectNamespace {
  const madeBy = new WeakMap<DurableObjectId, DurableObjectNamespace>();
  const ns = {
    idFromName(name: string) {
      const owner = oddShard(name) === oddHere ? local : other;
      const id = owner.idFromName(name);
      madeBy.set(id, owner);
      return id;
    },
    idFromString: (id: string) => local.idFromString(id),
    newUniqueId: (opts?: DurableObjectNamespaceNewUniqueIdOptions) => local.newUniqueId(opts),
    get(id: DurableObjectId, opts?: DurableObjectNamespaceGetDurableObjectOptions) {
      return (madeBy.get(id) ?? local).get(id, opts);
    },
    getByName(name: string, opts?: DurableObjectNamespaceGetDurableObjectOptions) {
      return ns.get(ns.idFromName(name), opts);
    },
    jurisdiction: (j: DurableObjectJurisdiction) => local.jurisdiction(j),
  };
  return ns as unknown as DurableObjectNamespace;
}

const split = new WeakMap<object, object>();

/** `env` with TOURNAMENT_ROOM split between the two sessions, or `env` itself outside the two-process row. */
export function splitEnv<E extends SplitBindings>(env: E): E {
  const other = env.BENCH_OTHER_ROOMS;
  if (!other) return env;
  let out = split.get(env) as E | undefined;
  if (!out) {
    const rooms = splitNamespace(env.TOURNAMENT_ROOM, other, env.BENCH_ODD_SHARDS_HERE === "1");
    out = new Proxy(env, { get: (target, key, receiver) => (key === "TOURNAMENT_ROOM" ? rooms : Reflect.get(target, key, receiver)) });
    split.set(env, out);
  }
  return out;
}
