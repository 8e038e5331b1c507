import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a loopback server received, its body read whole. */
export interface RecordedRequest {
  method: string;
  /** The request target exactly as sent (path and query). */
  url: string;
  httpVersion: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; the handler ends the response (or leaves it hanging on purpose). */
export type LoopbackHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 (and on [::1] at the same port when asked and available). */
export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** True when the server also listens on [::1]. */
  readonly ipv6: boolean;
  /** Every request received, in order: an empty list proves nothing reached the server. */
  readonly requests: RecordedRequest[];
  /** The underlying servers (the IPv4 one first), for tests that watch connections. */
  readonly servers: readonly Server[];
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** Also listen on [::1] at the same port, when this machine has an IPv6 loopback (default false). */
  ipv6?: boolean;
}

const answerOk: LoopbackHandler = (_request, response) => {
  response.end("ok");
};

/**
 * Starts a recording HTTP server on an ephemeral loopback port. A handler that throws (or
 * rejects) answers 500 with the error's text, so a broken test server shows in the test's failure.
 */
export async function startLoopbackServer(
  handler: LoopbackHandler = answerOk,
  options: LoopbackOptions = {},
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const serve = (): Server =>
    createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const recorded: RecordedRequest = {
          method: incoming.method ?? "",
          url: incoming.url ?? "",
          httpVersion: incoming.httpVersion,
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        requests.push(recorded);
        Promise.resolve()
          .then(() => handler(recorded, response))
          .catch((error: unknown) => {
            if (response.headersSent) {
              response.destroy();
              return;
            }
            response.writeHead(500, { "content-type": "text/plain" });
            response.end(`loopback handler failed: ${String(error)}`);
          });
      });
    });
  const { port, servers } = await listenOnLoopback(serve, options.ipv6 === true);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    ipv6: servers.length === 2,
    requests,
    servers,
    close: () => Promise.all(servers.map((server) => closeServer(server))).then(() => undefined),
  };
}

/**
 * Listens with one server from `serve` on an ephemeral port of 127.0.0.1 and, when `ipv6` is true,
 * with another on the same port of [::1] when this machine has an IPv6 loopback (and the port is
 * free there); `servers` holds the one or two that listen.
 */
export async function listenOnLoopback(
  serve: () => Server,
  ipv6: boolean,
): Promise<{ port: number; servers: Server[] }> {
  const ipv4 = serve();
  await listen(ipv4, 0, "127.0.0.1");
  const { port } = ipv4.address() as AddressInfo;
  const servers = [ipv4];
  if (ipv6) {
    const server = serve();
    try {
      await listen(server, port, "::1");
      servers.push(server);
    } catch {
      // no IPv6 loopback here, or the port is taken on it: IPv4 only
    }
  }
  return { port, servers };
}

/** Listens on `host:port`; rejects when the address cannot be taken. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Drops every open connection of `server` and waits until it stops listening. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
