import { type Context, createContextKey, type Span } from "@opentelemetry/api";

/** An `execute_tool` span in flight, found again by the tool's route through its call id. */
export interface ToolRun {
  readonly span: Span;
  readonly context: Context;
}

/**
 * One run of an llm step (the `invoke_agent` span) and the chat and tool spans opened under it
 * from the step's model and tool call events.
 */
export interface AgentRun {
  readonly span: Span;
  readonly context: Context;
  readonly routeId: string;
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  /** The model call in flight (calls of one run follow each other). */
  chat: Span | undefined;
  /** Tool calls in flight, by call id. */
  readonly tools: Map<string, ToolRun>;
  /** Every span opened under the run and not ended yet, ended with the run at the latest. */
  readonly open: Set<Span>;
}

/** The context key under which an llm step's run is current while the step runs. */
export const AGENT_RUN_KEY = createContextKey("routekit.otel.agent-run");

/** The runs in flight by exchange id (model and tool call events name the exchange). */
export type AgentRuns = Map<string, AgentRun>;
