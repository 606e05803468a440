// TEST DOUBLE plumbing, never used by the Worker in production: a loopback HTTP server that a
// vitest globalSetup starts (Node side) so the Worker's real outbound calls (bot check, mail
// provider) run against it. Each double supplies only how it answers; GET /__double/requests lists
// what the Worker sent, DELETE clears it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface DoubleRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The request body as text. */
  body: string;
  /** Answers with JSON. */
  json(status: number, body: unknown): void;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

/** Starts a double on a free loopback port; `received` is what GET /__double/requests shows. */
export async function startLocalDouble<T>(name: string, received: T[], answer: (r: DoubleRequest) => void | Promise<void>) {
  const server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://double");
    if (url.pathname === "/__double/requests") {
      if (req.method === "DELETE") received.length = 0;
      return json(200, received);
    }
    await answer({ req, res, url, body: await readBody(req), json });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error(`${name} double: no port`);
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
