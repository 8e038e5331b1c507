import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteContext } from "@routekit/core";
import { sendError, sendJson } from "./http-replies.js";

/** Longest answer body accepted: `{ "reason": "..." }`. */
export const MAX_ANSWER_BYTES = 4096;
/** Parked runs listed at most. */
const MAX_PARKED = 200;

/** A person's answer, as `context.agents.approve` takes it. */
export interface ApprovalAnswerInput {
  approved: boolean;
  reason?: string;
  by?: string;
}

/** What the console reads of a stored durable run. */
interface StoredRun {
  readonly id: string;
  readonly status: string;
  readonly updatedAt: number;
  readonly state: {
    readonly routeId?: string | undefined;
    readonly approvals: Readonly<
      Record<string, { toolName: string; argumentsText: string; requestedAt: number; status: string }>
    >;
  };
}

/**
 * What the console uses of `context.agents`, the durable runs of `@routekit/llm` (present when that
 * package's plugin runs in the context). Declared here so the console needs no runtime dependency on
 * it; `test/durable-runs-contract.test-d.ts` checks the real one fits.
 */
export interface DurableRunsAccess {
  list(query?: { status?: string; limit?: number }): Promise<readonly StoredRun[]>;
  approve(runId: string, callId: string, answer: ApprovalAnswerInput): Promise<unknown>;
}

/** `context.agents` when the llm plugin installed it, else undefined. */
function agentsOf(context: RouteContext): DurableRunsAccess | undefined {
  const agents: unknown = Reflect.get(context, "agents");
  if (typeof agents !== "object" || agents === null) return undefined;
  const { list, approve } = agents as Partial<DurableRunsAccess>;
  return typeof list === "function" && typeof approve === "function"
    ? (agents as DurableRunsAccess)
    : undefined;
}

/** GET /api/durable-runs: the parked runs of every instance sharing the store, with their waiting calls. */
export async function listParkedRuns(context: RouteContext, response: ServerResponse): Promise<void> {
  const agents = agentsOf(context);
  if (agents === undefined) {
    return sendJson(response, 200, { available: false, reason: "no durable runs in this context", runs: [] });
  }
  let records: readonly StoredRun[];
  try {
    records = await agents.list({ status: "parked", limit: MAX_PARKED });
  } catch (error) {
    return sendJson(response, 200, { available: false, reason: messageOf(error), runs: [] });
  }
  const runs = records.map((record) => ({
    runId: record.id,
    routeId: record.state.routeId,
    updatedAt: record.updatedAt,
    calls: Object.entries(record.state.approvals)
      .filter(([, approval]) => approval.status === "pending")
      .map(([callId, approval]) => ({
        callId,
        toolName: approval.toolName,
        arguments: approval.argumentsText,
        requestedAt: approval.requestedAt,
      })),
  }));
  sendJson(response, 200, { available: true, runs });
}

/**
 * POST /api/durable-runs/:runId/calls/:callId/approve (or /deny), body `{ "reason"?: string }`:
 * answers the call as "console" and resumes the run here once every waiting call has its answer.
 */
export async function answerCall(
  context: RouteContext,
  request: IncomingMessage,
  response: ServerResponse,
  target: { runId: string; callId: string; approved: boolean },
): Promise<void> {
  const agents = agentsOf(context);
  if (agents === undefined) return sendError(response, 404, "no durable runs in this context");
  const body = await readAnswerBody(request);
  if (typeof body === "string") return sendError(response, 400, body);
  if ("tooLarge" in body) {
    // The rest of the body is not read: the connection closes once the refusal is sent.
    response.setHeader("connection", "close");
    response.once("finish", () => request.destroy());
    return sendError(response, 413, body.tooLarge);
  }
  const answer: ApprovalAnswerInput = { approved: target.approved, by: "console" };
  if (body.reason !== undefined) answer.reason = body.reason;
  let outcome: unknown;
  try {
    outcome = await agents.approve(target.runId, target.callId, answer);
  } catch (error) {
    const code = Reflect.get(error as object, "code");
    return sendError(response, code === "RUN_NOT_FOUND" ? 404 : 409, messageOf(error));
  }
  const status = typeof outcome === "object" && outcome !== null ? Reflect.get(outcome, "status") : outcome;
  sendJson(response, 200, { runId: target.runId, callId: target.callId, approved: target.approved, status });
}

/** The answer's body: empty, or `{ "reason": string }`; `tooLarge` past MAX_ANSWER_BYTES; else what is wrong. */
async function readAnswerBody(
  request: IncomingMessage,
): Promise<{ reason?: string } | { tooLarge: string } | string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) return { tooLarge: `an answer's body is at most ${MAX_ANSWER_BYTES} bytes` };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'an answer\'s body is JSON: { "reason": "..." } (found text that is not JSON)';
  }
  const reason = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "reason") : undefined;
  if (typeof parsed !== "object" || parsed === null || (reason !== undefined && typeof reason !== "string")) {
    return `an answer's body is { "reason": string } (found ${JSON.stringify(parsed).slice(0, 80)})`;
  }
  return reason === undefined ? {} : { reason };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
