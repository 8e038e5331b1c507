import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { RoutekitMcpError } from "../errors.js";
import { type CallSession, callSessionOf } from "./call-sessions.js";
import type { CallTarget } from "./call-target.js";

/** What `mcpSample` asks the client's model: the SDK's `sampling/createMessage` parameters. */
export type McpSampleRequest = CreateMessageRequestParams;
/** The client's answer to `mcpSample`: its model, role and content. */
export type McpSampleResult = CreateMessageResult;
/** What `mcpElicit` asks the user: a message and a flat JSON Schema of fields (defaults and enums allowed). */
export type McpElicitRequest = Omit<ElicitRequestFormParams, "mode"> & { mode?: "form" };
/** The user's answer: `action` "accept" (with `content`), "decline" or "cancel". */
export type McpElicitResult = ElicitResult;

/**
 * Asks the MCP client whose tool call `target` serves (a tool route's exchange, or a native tool's
 * context) for a model completion (`sampling/createMessage`), and resolves with its answer. The
 * request is tied to the call: it travels on the call's stream and ends with the call's signal.
 * Rejects with a `RoutekitMcpError` (code `CAPABILITY_MISSING`) when the client did not declare
 * `sampling`, or outside an MCP call.
 *
 * ```ts
 * .process(async (exchange) => {
 *   const answer = await mcpSample(exchange, {
 *     messages: [{ role: "user", content: { type: "text", text: "Name a colour" } }],
 *     maxTokens: 50,
 *   });
 *   exchange.body = answer.content.type === "text" ? answer.content.text : "";
 * })
 * ```
 */
export async function mcpSample(target: CallTarget, request: McpSampleRequest): Promise<McpSampleResult> {
  const session = sessionFor(target, "mcpSample");
  if (session.server.getClientCapabilities()?.sampling === undefined) {
    throw missing("mcpSample", "sampling", session);
  }
  return session.server.createMessage(request, {
    relatedRequestId: session.extra.requestId,
    signal: session.extra.signal,
  }) as Promise<McpSampleResult>;
}

/**
 * Asks the user of the MCP client whose tool call `target` serves to fill in a form
 * (`elicitation/create`): `requestedSchema` lists flat fields — string, number, integer, boolean,
 * enums (titled with `oneOf`, multi-select as arrays) — each with an optional `default`. Resolves
 * with the user's action and, on "accept", the content (checked against the schema). Rejects with
 * a `RoutekitMcpError` (code `CAPABILITY_MISSING`) when the client did not declare `elicitation`.
 */
export async function mcpElicit(target: CallTarget, request: McpElicitRequest): Promise<McpElicitResult> {
  const session = sessionFor(target, "mcpElicit");
  const elicitation = session.server.getClientCapabilities()?.elicitation;
  if (elicitation === undefined) throw missing("mcpElicit", "elicitation", session);
  return session.server.elicitInput(
    { ...request, mode: "form" },
    { relatedRequestId: session.extra.requestId, signal: session.extra.signal },
  );
}

function sessionFor(target: CallTarget, where: string): CallSession {
  const session = callSessionOf(target);
  if (session === undefined) {
    throw new RoutekitMcpError(
      "CAPABILITY_MISSING",
      `${where}: no MCP client to ask — it works only while a tool route or tool serves a call from an MCP client`,
    );
  }
  return session;
}

function missing(where: string, capability: string, session: CallSession): RoutekitMcpError {
  const client = session.server.getClientVersion()?.name ?? "the client";
  return new RoutekitMcpError(
    "CAPABILITY_MISSING",
    `${where}: MCP client '${client}' did not declare the '${capability}' capability in initialize, so it cannot be asked`,
  );
}
