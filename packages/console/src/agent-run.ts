import type { RunStatus } from "./run-outcome.js";

/** One model turn or one tool call of an agent run. */
export interface AgentCall {
  readonly kind: "model" | "tool";
  /** The model call (1-based) this belongs to. */
  readonly iteration: number;
  /** The model (`provider/model`) or the tool's name. */
  readonly name: string;
  /** The tool call's id, as the model wrote it. */
  readonly callId: string | undefined;
  /** Milliseconds from the run's start. */
  readonly startMs: number;
  durationMs: number | undefined;
  status: "running" | "completed" | "failed";
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** Input tokens the provider served from its prompt cache, when it said. */
  cachedInputTokens: number | undefined;
  /** The call's cost in US dollars, when the model has a price in `llmPlugin({ prices })`. */
  costUsd: number | undefined;
  stopReason: string | undefined;
  /** The tool's arguments as the model wrote them (only when the llm step has `includeContent`). */
  readonly arguments: string | undefined;
  /** What the model read back from the tool (only with `includeContent`). */
  output: string | undefined;
  error: string | undefined;
}

/** One run of an llm step: the model's turns and the tool calls between them. */
export interface AgentRun {
  readonly id: string;
  readonly exchangeId: string;
  readonly routeId: string | undefined;
  /** The llm step, as step events name it. */
  readonly stepPath: string | undefined;
  readonly startedAt: number;
  readonly startTime: number;
  durationMs: number | undefined;
  /** `cancelled`: its caller stopped it (stopped reading the stream, closed the connection). */
  status: RunStatus;
  error: string | undefined;
  model: string | undefined;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** The run's cost in US dollars so far (its priced model calls); undefined when none was priced. */
  costUsd: number | undefined;
  toolCalls: number;
  readonly calls: AgentCall[];
  /** Calls made after the run's list was full (counted, not kept). */
  droppedCalls: number;
}

export interface AgentRunSummary {
  readonly id: string;
  readonly exchangeId: string;
  readonly routeId: string | undefined;
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly status: AgentRun["status"];
  readonly model: string | undefined;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | undefined;
  readonly toolCalls: number;
  readonly modelCalls: number;
}

/** What the agent runs of one route spent, since the console started (not only the kept runs). */
export interface RouteSpend {
  readonly routeId: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** US dollars over the priced model calls. */
  costUsd: number;
}

export function summariseRun(run: AgentRun): AgentRunSummary {
  return {
    id: run.id,
    exchangeId: run.exchangeId,
    routeId: run.routeId,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    status: run.status,
    model: run.model,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
    costUsd: run.costUsd,
    toolCalls: run.toolCalls,
    modelCalls: run.calls.filter((call) => call.kind === "model").length,
  };
}

/** An agent run as the page reads it: each tool call with the recorded exchange of its tool route, if any. */
export interface AgentRunJson extends Omit<AgentRun, "startTime" | "calls"> {
  readonly calls: ReadonlyArray<AgentCall & { readonly exchangeId: string | undefined }>;
}

/**
 * The run as JSON for the page. `exchangeOfCall` finds the recorded exchange a tool call ran on (its
 * route received the call id in the `llm.tool.call_id` header).
 */
export function runJson(run: AgentRun, exchangeOfCall: (callId: string) => string | undefined): AgentRunJson {
  const { startTime: _startTime, calls, ...rest } = run;
  return {
    ...rest,
    calls: calls.map((call) => ({
      ...call,
      exchangeId: call.kind === "tool" && call.callId !== undefined ? exchangeOfCall(call.callId) : undefined,
    })),
  };
}
