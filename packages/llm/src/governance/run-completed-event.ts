import type { TokenUsage } from "../model-types.js";
import type { ToolLoopStopReason } from "../tool-loop/tool-loop-types.js";
import type { BudgetStop } from "./run-budget.js";

/** An llm step's run ended (completed, stopped by a budget or by maxIterations): what it spent. */
export interface LlmRunCompletedEvent {
  routeId: string | undefined;
  exchangeId: string;
  /** The value of the header named by `llmPlugin({ tenantHeader })`, when set. */
  tenant: string | undefined;
  provider: string;
  model: string;
  usage: TokenUsage;
  /** US dollars, when the model has a price in `llmPlugin({ prices })`. */
  cost?: number;
  stopReason: ToolLoopStopReason;
  /** With stop reason "budget": which budget ended the run. */
  budget?: BudgetStop;
  iterations: number;
  toolCalls: number;
}

declare module "@routekit/core" {
  interface RoutekitEvents {
    "llm-run-completed": LlmRunCompletedEvent;
  }
}
