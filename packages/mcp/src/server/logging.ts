import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";

// The level each connection's client set (one SDK Server per connection).
const levels = new WeakMap<Server, LoggingLevel>();

/** Answers `logging/setLevel` on `server`: later lines below the level are not sent. */
export function serveLogging(server: Server): void {
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    levels.set(server, request.params.level);
    return {};
  });
}

/** The level the client of `server` set, if it did. */
export function levelOf(server: Server): LoggingLevel | undefined {
  return levels.get(server);
}
