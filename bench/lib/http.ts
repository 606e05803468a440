// A small HTTP/1.1 client over keep-alive connections to the dev server on loopback. Latency is
// measured from the moment a request is handed to a free connection to the end of its body; the
// callers never have more requests in flight than the agent has connections, so nothing queues
// inside the client.
import http from "node:http";
import { now } from "./stats";

export interface Reply<T = any> {
  status: number;
  text: string;
  json: T;
  ms: number;
  setCookie: string[];
}

export class HttpClient {
  readonly agent: http.Agent;
  readonly hostHeader: string;
  readonly origin: string;

  /** Connects to 127.0.0.1:port while presenting `localhost:port`, the origin the Worker expects. */
  constructor(
    readonly port: number,
    maxSockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "fifo" });
    this.hostHeader = `localhost:${port}`;
    this.origin = `http://localhost:${port}`;
  }

  /**
   * Sends one request. A kept-alive connection that the server closed while it sat idle fails
   * the next request sent on it before any byte of it was read ("socket hang up"); that request
   * is sent again once on a fresh connection, as Node's documentation advises (req.reusedSocket),
   * after dropping the other idle connections, which the server will have closed as well.
   */
  async request<T = any>(
    method: string,
    path: string,
    opts: { cookie?: string; body?: unknown; timeoutMs?: number } = {},
  ): Promise<Reply<T>> {
    try {
      return await this.#send<T>(method, path, opts);
    } catch (e) {
      if (!(e as { reusedSocket?: boolean }).reusedSocket) throw e;
      this.staleRetries++;
      for (const list of Object.values(this.agent.freeSockets)) for (const socket of list ?? []) socket.destroy();
      return this.#send<T>(method, path, opts);
    }
  }

  /** Requests sent again after a stale kept-alive connection (see request()). */
  staleRetries = 0;

  #send<T>(method: string, path: string, opts: { cookie?: string; body?: unknown; timeoutMs?: number }): Promise<Reply<T>> {
    const headers: Record<string, string> = { host: this.hostHeader, accept: "application/json" };
    if (opts.cookie) headers.cookie = opts.cookie;
    let payload: string | undefined;
    if (method !== "GET" && method !== "HEAD") {
      headers.origin = this.origin;
      payload = JSON.stringify(opts.body ?? {});
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const started = now();
      const req = http.request({ host: "127.0.0.1", port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const ms = now() - started;
          const text = Buffer.concat(chunks).toString("utf8");
          let json: any = undefined;
          if ((res.headers["content-type"] ?? "").includes("json")) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          const sc = res.headers["set-cookie"] ?? [];
          resolve({ status: res.statusCode ?? 0, text, json, ms, setCookie: Array.isArray(sc) ? sc : [sc] });
        });
      });
      req.setTimeout(opts.timeoutMs ?? 60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on("error", (e: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && (e.code === "ECONNRESET" || e.message === "socket hang up");
        reject(Object.assign(e, { reusedSocket: stale }));
      });
      req.end(payload);
    });
  }

  get = <T = any>(path: string, cookie?: string) => this.request<T>("GET", path, { cookie });

  /**
   * A GET for the harness's own use (counters, checks), not a measured request: tried up to three
   * times on a connection error, a timeout or a 5xx, since reading twice changes nothing.
   */
  async getWithRetries<T = any>(path: string, cookie?: string): Promise<Reply<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.request<T>("GET", path, { cookie, timeoutMs: 30_000 });
        if (res.status < 500 || attempt === 3) return res;
      } catch (e) {
        if (attempt === 3) throw e;
      }
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
  post = <T = any>(path: string, body: unknown = {}, cookie?: string) => this.request<T>("POST", path, { cookie, body });

  close(): void {
    this.agent.destroy();
  }
}

/** The `sid=…` pair from a response's Set-Cookie headers. */
export function sessionCookie(setCookie: string[]): string | null {
  for (const c of setCookie) {
    const m = /^(sid=[^;]+)/.exec(c);
    if (m) return m[1]!;
  }
  return null;
}
