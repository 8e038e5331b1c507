import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a loopback server received. */
export interface RecordedRequest {
  method: string;
  /** The request target exactly as sent (path and query). */
  url: string;
  httpVersion: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; the response is ended by the handler. */
export type LoopbackHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 (and on [::1] at the same port when available). */
export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** True when the server also listens on [::1]. */
  readonly ipv6: boolean;
  /** Every request received, in order: an empty list proves nothing reached the server. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const answerOk: LoopbackHandler = (_, response) => {
  response.end("ok");
};

/** Starts a recording loopback server on an ephemeral port. */
export async function startLoopbackServer(handler: LoopbackHandler = answerOk): Promise<LoopbackServer> {
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
        Promise.resolve(handler(recorded, response)).catch((error: unknown) => {
          response.statusCode = 500;
          response.end(String(error));
        });
      });
    });
  const ipv4 = serve();
  await listen(ipv4, 0, "127.0.0.1");
  const { port } = ipv4.address() as AddressInfo;
  const ipv6 = serve();
  const servers = [ipv4];
  try {
    await listen(ipv6, port, "::1");
    servers.push(ipv6);
  } catch {
    // no IPv6 loopback here, or the port is taken on it: IPv4 only
  }
  return {
    port,
    ipv6: servers.length === 2,
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      await Promise.all(servers.map((server) => closeServer(server)));
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
