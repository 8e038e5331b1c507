import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { truncateForMessage } from "@routekit/core/internal";
import type { ToolResult } from "@routekit/llm";
import type { ApprovalRequest, DurableOutcome } from "@routekit/llm/internal";
import { type CallSession, callSessionOf } from "./call-sessions.js";

/** Rounds of approvals one call asks for at most (a run may park again after it resumes). */
const MAX_ROUNDS = 10;

/** The llm step's reply for a durable run that parked: `{ runId, status: "parked", pending }`. */
interface ParkedRun {
  readonly runId: string;
  readonly pending: readonly ApprovalRequest[];
}

function parkedRunOf(value: unknown): ParkedRun | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const reply = value as { runId?: unknown; status?: unknown; pending?: unknown };
  if (reply.status !== "parked" || typeof reply.runId !== "string" || !Array.isArray(reply.pending)) {
    return undefined;
  }
  return { runId: reply.runId, pending: reply.pending as ApprovalRequest[] };
}

/**
 * When a tool route served over MCP replies with a durable run that parked for approval (its llm
 * step's parked reply) and the calling client declared `elicitation`, asks the client's user for
 * each waiting call (`elicitation/create`: approve yes/no and a reason) and answers the run with
 * `context.agents.approve`, which resumes it here. The call's result is then the run's answer; a
 * run that parks again is asked again. "decline" is a denial; "cancel" (or no client to ask)
 * leaves the run parked and the result as it was, for another path (the approvals endpoint,
 * `context.agents.approve`, the console) to answer.
 */
export function approveParkedRun(
  context: RouteContext,
  callId: string,
  result: ToolResult,
  deadline: { readonly signal: AbortSignal },
): ToolResult | Promise<ToolResult> {
  const parked = result.isError ? undefined : parkedRunOf("value" in result ? result.value : undefined);
  if (parked === undefined) return result;
  const session = callSessionOf({ callId });
  if (session === undefined || session.server.getClientCapabilities()?.elicitation === undefined)
    return result;
  return askUntilAnswered(context, session, parked, result, deadline.signal);
}

/** Asks about every waiting call, round after round while the run parks again. */
async function askUntilAnswered(
  context: RouteContext,
  session: CallSession,
  first: ParkedRun,
  parkedReply: ToolResult,
  signal: AbortSignal,
): Promise<ToolResult> {
  let parked: ParkedRun | undefined = first;
  let result = parkedReply;
  for (let round = 0; round < MAX_ROUNDS && parked !== undefined; round++) {
    let outcome: DurableOutcome | "waiting" | undefined;
    for (const request of parked.pending) {
      const answer = await askApproval(session, request, signal);
      if (answer === undefined) return result;
      outcome = await context.agents.approve(parked.runId, request.callId, answer);
    }
    if (outcome === undefined || outcome === "waiting") return result;
    if (outcome.status === "completed") return answered(outcome.result.text);
    parked = outcome;
    result = parkedResult(outcome);
  }
  return result;
}

/** The user's answer to one waiting call, or undefined when they dismissed the question. */
async function askApproval(
  session: CallSession,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<{ approved: boolean; reason?: string; by: string } | undefined> {
  const client = session.server.getClientVersion()?.name ?? "client";
  const answer: ElicitResult = await session.server.elicitInput(
    {
      mode: "form",
      message: `Approve the call of tool '${request.toolName}' with arguments ${truncateForMessage(request.arguments, 500)}?`,
      requestedSchema: {
        type: "object",
        properties: {
          approved: { type: "boolean", title: "Approve", description: "Run the tool call", default: false },
          reason: { type: "string", title: "Reason", description: "Why (the model reads it with a denial)" },
        },
        required: ["approved"],
      },
    },
    { relatedRequestId: session.extra.requestId, signal },
  );
  const by = `mcp client '${truncateForMessage(client, 100)}'`;
  if (answer.action === "decline") return { approved: false, reason: "declined by the user", by };
  if (answer.action !== "accept") return undefined;
  const content = answer.content ?? {};
  const reason = typeof content.reason === "string" && content.reason !== "" ? content.reason : undefined;
  return { approved: content.approved === true, ...(reason === undefined ? {} : { reason }), by };
}

function answered(text: string): ToolResult {
  const result: ToolResult = { output: text, isError: false };
  Object.defineProperty(result, "value", {
    value: text,
    enumerable: false,
    writable: true,
    configurable: true,
  });
  return result;
}

function parkedResult(outcome: Extract<DurableOutcome, { status: "parked" }>): ToolResult {
  const value = { runId: outcome.runId, status: "parked", pending: outcome.pending };
  const result: ToolResult = { output: JSON.stringify(value), isError: false };
  Object.defineProperty(result, "value", { value, enumerable: false, writable: true, configurable: true });
  return result;
}
