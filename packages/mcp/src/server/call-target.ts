import type { ToolCallContext } from "@routekit/llm/tool";

/** Something a tool call runs with: the exchange of a tool route, or a native tool's context. */
export type CallTarget = { readonly headers?: Record<string, unknown> } | ToolCallContext;
