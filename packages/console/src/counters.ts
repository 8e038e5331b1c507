import type { RouteContext } from "@routekit/core";
import type { StatsRegistry, StepStats } from "./step-stats.js";

/** Live counters of one step. */
export interface StepCounters {
  readonly path: string;
  readonly calls: number;
  readonly failures: number;
  readonly inflight: number;
  /** Median and 99th percentile duration (ms) of the recorded runs, when there are any. */
  readonly p50: number | undefined;
  readonly p99: number | undefined;
}

/** Live counters of one route and its steps. */
export interface RouteCounters {
  readonly routeId: string;
  readonly state: "started" | "stopped";
  /** Exchanges that entered the route (counted at its first step). */
  readonly exchanges: number;
  /** Runs of the route's own steps that ended with an error. */
  readonly failures: number;
  /** Exchanges inside the route now. */
  readonly inflight: number;
  readonly p50: number | undefined;
  readonly p99: number | undefined;
  readonly steps: readonly StepCounters[];
}

function stepCounters(step: StepStats): StepCounters {
  return {
    path: step.path,
    calls: step.calls,
    failures: step.failures,
    inflight: step.calls - step.ended,
    p50: step.durations.percentile(0.5),
    p99: step.durations.percentile(0.99),
  };
}

/** Every route's counters now. */
export function readCounters(context: RouteContext, registry: StatsRegistry): RouteCounters[] {
  return context.routes().map((status) => {
    const route = registry.routes.get(status.id);
    const topLevel = route?.topLevel() ?? [];
    return {
      routeId: status.id,
      state: status.state,
      exchanges: topLevel[0]?.calls ?? 0,
      failures: topLevel.reduce((sum, step) => sum + step.failures, 0),
      inflight: status.inflight,
      p50: route?.durations.percentile(0.5),
      p99: route?.durations.percentile(0.99),
      steps: (route?.steps ?? []).map(stepCounters),
    };
  });
}
