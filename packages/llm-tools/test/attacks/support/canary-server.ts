import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { listenOnLoopback } from "@routekit/test-support";

/** Answers a request the canary accepted; the default answers "canary". */
export type CanaryHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A real HTTP server on 127.0.0.1 (and [::1] on the same port when available) that counts every
 * TCP connection it accepts: a refused target must leave `connections` at zero, which proves no
 * socket reached it, not just that no request was parsed.
 */
export interface CanaryServer {
  readonly port: number;
  /** True when [::1] is served too. */
  readonly ipv6: boolean;
  /** Accepted TCP connections, over both addresses. */
  readonly connections: number;
  /** Request targets received, in order. */
  readonly paths: readonly string[];
  reset(): void;
  close(): Promise<void>;
}

const answerCanary: CanaryHandler = (_request, response) => {
  response.setHeader("connection", "close");
  response.end("canary");
};

/** Starts a canary on an ephemeral loopback port. */
export async function startCanaryServer(handler: CanaryHandler = answerCanary): Promise<CanaryServer> {
  let connections = 0;
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const serve = (): Server => {
    const server = createServer((request, response) => {
      paths.push(request.url ?? "");
      handler(request, response);
    });
    server.on("connection", (socket: Socket) => {
      connections += 1;
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    return server;
  };
  const { port, servers } = await listenOnLoopback(serve, true);
  return {
    port,
    ipv6: servers.length === 2,
    get connections() {
      return connections;
    },
    paths,
    reset() {
      connections = 0;
      paths.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}
