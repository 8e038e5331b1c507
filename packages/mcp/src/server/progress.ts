import { TOOL_CALL_ID_HEADER, type ToolCallContext } from "@routekit/llm/tool";

/** One progress report of a running call: `progress` grows; `total` and `message` are optional. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

type ProgressSink = (update: ProgressUpdate) => void;

// Calls whose caller asked for progress, by the call id the tool sees (an exchange's
// `llm.tool.call_id` header, a native tool's `context.callId`). Ids are unique in the process (a
// random prefix and a count).
const sinks = new Map<string, ProgressSink>();

/** Starts routing progress reports of call `callId` to `sink`; returns the function that stops it. */
export function listenForProgress(callId: string, sink: ProgressSink): () => void {
  sinks.set(callId, sink);
  return () => {
    if (sinks.get(callId) === sink) sinks.delete(callId);
  };
}

/**
 * Reports progress of the tool call `target` belongs to — an exchange of a tool route (from any of
 * its steps) or the `ToolCallContext` a native tool's `execute` received. When the call came from
 * an MCP client that asked for progress, the client receives `notifications/progress`; otherwise
 * nothing happens. Returns true when someone was listening.
 *
 * ```ts
 * r.from("direct:export").asLlmTool("export_rows", { description: "..." })
 *   .process((exchange) => { reportProgress(exchange, 1, 3, "reading"); });
 * ```
 */
export function reportProgress(
  target: { readonly headers?: Record<string, unknown> } | ToolCallContext,
  progress: number,
  total?: number,
  message?: string,
): boolean {
  const callId = callIdOf(target);
  if (callId === undefined) return false;
  const sink = sinks.get(callId);
  if (sink === undefined) return false;
  const update: ProgressUpdate = { progress };
  if (total !== undefined) update.total = total;
  if (message !== undefined) update.message = message;
  sink(update);
  return true;
}

function callIdOf(target: unknown): string | undefined {
  if (typeof target !== "object" || target === null) return undefined;
  const record = target as { callId?: unknown; headers?: Record<string, unknown> };
  if (typeof record.callId === "string") return record.callId;
  const header = record.headers?.[TOOL_CALL_ID_HEADER];
  return typeof header === "string" ? header : undefined;
}
