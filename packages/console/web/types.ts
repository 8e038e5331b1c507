// The JSON the console's API sends, typed by the server's own declarations.

export type { StepDescription } from "@routekit/core/internal";
export type {
  AgentCall,
  AgentRunJson as AgentRun,
  AgentRunSummary,
  RouteSpend,
} from "../src/agent-run.js";
export type { LiveRouteCounters, LiveStepCounters } from "../src/counters.js";
export type { ExchangeRecord, ExchangeSummary, StepRun } from "../src/exchange-record.js";
export type { ConsoleGraph, GraphEdge, GraphRoute, GraphTool } from "../src/route-graph.js";
export type { MessageSnapshot } from "../src/snapshot.js";

import type { AgentRunSummary, RouteSpend } from "../src/agent-run.js";
import type { LiveRouteCounters } from "../src/counters.js";
import type { ExchangeSummary } from "../src/exchange-record.js";

/** One message of the live event stream. */
export interface LiveSnapshot {
  readonly version: number;
  readonly counters: readonly LiveRouteCounters[];
  readonly exchanges: readonly ExchangeSummary[];
  readonly agentRuns: readonly AgentRunSummary[];
  /** Tokens and cost of each route's agent runs. */
  readonly routeSpend: readonly RouteSpend[];
}

/** GET /api/durable-runs: the durable runs waiting for a person, when the context has durable runs. */
export interface ParkedRuns {
  available: boolean;
  reason?: string;
  runs: Array<{
    runId: string;
    routeId?: string;
    updatedAt: number;
    calls: Array<{ callId: string; toolName: string; arguments: string; requestedAt: number }>;
  }>;
}
