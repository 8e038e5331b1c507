// The llm-tools tests' loopback server is the shared one, on 127.0.0.1 and [::1] (the tools' address
// guards are tested on both).
import {
  type LoopbackHandler,
  type LoopbackServer as SharedLoopbackServer,
  startLoopbackServer as startShared,
} from "@routekit/test-support";

export type { LoopbackHandler, RecordedRequest } from "@routekit/test-support";

/** A real HTTP server on 127.0.0.1 (and on [::1] at the same port when available). */
export interface LoopbackServer extends SharedLoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
}

/** Starts a recording loopback server on an ephemeral port. */
export async function startLoopbackServer(handler?: LoopbackHandler): Promise<LoopbackServer> {
  const server = await startShared(handler, { ipv6: true });
  return Object.assign(server, { origin: server.url });
}
