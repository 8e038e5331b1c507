import type { ServerResponse } from "node:http";
import {
  type RecordedRequest,
  type LoopbackServer as SharedLoopbackServer,
  startLoopbackServer as startShared,
} from "@routekit/test-support";

/** What the loopback server saw of one request. */
export type SeenRequest = RecordedRequest;

/** A real node:http server on 127.0.0.1 for the client producer to call. */
export interface LoopbackServer extends SharedLoopbackServer {
  readonly seen: SeenRequest[];
}

/** Starts a server answering every request with `respond` (after reading the whole body). */
export async function startLoopbackServer(
  respond: (request: SeenRequest, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const server = await startShared(respond);
  return Object.assign(server, { seen: server.requests });
}
