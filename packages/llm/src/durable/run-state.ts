import type { BudgetStop } from "../governance/run-budget.js";
import type { ChatMessage, TokenUsage, ToolCallResult } from "../model-types.js";
import type { ToolLoopStopReason } from "../tool-loop/tool-loop-types.js";

/** Where a durable run stands: working, waiting for a person, or ended. */
export type RunStatus = "running" | "parked" | "completed" | "failed";

/** A person's answer to a call that needs approval, or the wait for it. */
export interface ApprovalState {
  readonly toolName: string;
  /** The call's arguments as the model wrote them. */
  readonly argumentsText: string;
  readonly requestedAt: number;
  readonly status: "pending" | "approved" | "denied";
  readonly reason?: string;
  /** Who answered, as the answer said. */
  readonly by?: string;
}

/**
 * Everything a durable run needs to go on in another process: the conversation, the turn, what
 * the current turn's tool calls answered, which "once" calls started, and the approvals.
 * JSON data only: it is what the checkpoint store keeps.
 */
export interface DurableRunState {
  readonly runId: string;
  /** The `llm:` endpoint the run belongs to (its model, tools and options). */
  readonly endpointUri: string;
  readonly routeId: string | undefined;
  /** The conversation: the input, every assistant turn, every tool answer. */
  messages: ChatMessage[];
  /** Model calls whose replies are recorded. */
  iteration: number;
  usage: TokenUsage;
  toolCalls: number;
  /** Answers of the last assistant turn's tool calls, by call id, until the turn's tool message is written. */
  results: Record<string, ToolCallResult>;
  /** "once" calls of the current turn that started (a crash leaves their outcome unknown). */
  started: Record<string, true>;
  /** Calls of the current turn that need a person's answer, by call id. */
  approvals: Record<string, ApprovalState>;
  /** Where the answer of a run that finishes away from its first caller goes (an endpoint URI). */
  replyTo?: string;
  /** W3C traceparents of the spans that worked on the run (the last 16), so later spans can link to them. */
  traces?: string[];
  /** The conversation this run continues (`llm.thread.id`): its new messages are kept there when it completes. */
  thread?: ThreadMemory;
  /** Set when the run ended. */
  text?: string;
  stopReason?: ToolLoopStopReason;
  /** With stop reason "budget": which budget ended the run. */
  budget?: BudgetStop;
  error?: string;
}

/** Which thread a run continues: its id, how many of the run's first messages came from it, the budget. */
export interface ThreadMemory {
  readonly id: string;
  readonly known: number;
  readonly tokens: number;
}
