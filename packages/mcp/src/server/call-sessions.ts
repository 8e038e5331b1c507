import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { TOOL_CALL_ID_HEADER } from "@routekit/llm/tool";
import type { CallTarget } from "./call-target.js";

/** The connection a tool call came in on, and the request it answers. */
export interface CallSession {
  readonly server: Server;
  readonly extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
}

// Calls in flight by the call id their tool sees (a route's `llm.tool.call_id` header, a native
// tool's `context.callId`); ids are unique in the process.
const sessions = new Map<string, CallSession>();

/** Makes `session` the one of call `callId` until the returned function runs. */
export function openCallSession(callId: string, session: CallSession): () => void {
  sessions.set(callId, session);
  return () => {
    if (sessions.get(callId) === session) sessions.delete(callId);
  };
}

/** The session of the MCP call `target` serves, or undefined when it serves none (now). */
export function callSessionOf(target: CallTarget): CallSession | undefined {
  const callId = callIdOf(target);
  return callId === undefined ? undefined : sessions.get(callId);
}

export function callIdOf(target: unknown): string | undefined {
  if (typeof target !== "object" || target === null) return undefined;
  const record = target as { callId?: unknown; headers?: Record<string, unknown> };
  if (typeof record.callId === "string") return record.callId;
  const header = record.headers?.[TOOL_CALL_ID_HEADER];
  return typeof header === "string" ? header : undefined;
}
