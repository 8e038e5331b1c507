// @routekit/console: the route graph, live counters, recent exchanges and agent runs in a browser.
export type { AgentCall, AgentRun, AgentRunJson, AgentRunSummary, RouteSpend } from "./agent-run.js";
export { ConsoleError, type ConsoleErrorCode } from "./console-error.js";
export type { ConsoleBufferSizes, ConsoleOptions, ConsoleRecordMode } from "./console-options.js";
export { type ConsoleHandle, consoleOf, consolePlugin } from "./console-plugin.js";
export type { LiveRouteCounters, LiveStepCounters } from "./counters.js";
export type { ExchangeRecord, ExchangeSummary, StepRun } from "./exchange-record.js";
export type { ConsoleGraph, GraphEdge, GraphEndpoint, GraphRoute, GraphTool } from "./route-graph.js";
export type { MessageSnapshot } from "./snapshot.js";
