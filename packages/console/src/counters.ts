import type { RouteContext } from "@routekit/core";
import type { StatsRegistry, StepStats } from "./step-stats.js";

/** Live counters of one step. */
export interface LiveStepCounters {
  /** The step's path, as `context.describe()` and step events name it. */
  readonly path: string;
  readonly calls: number;
  readonly failures: number;
  readonly inflight: number;
  /** Median and 99th percentile duration (ms) of the runs recorded, when there are any. */
  readonly p50: number | undefined;
  readonly p99: number | undefined;
}

/** Live counters of one route and its steps. */
export interface LiveRouteCounters {
  readonly routeId: string;
  readonly state: "started" | "stopped";
  /** Exchanges the route finished or is running (since it was added). */
  readonly exchanges: number;
  /** Exchanges the route finished with an error. */
  readonly failures: number;
  /** Exchanges inside the route now. */
  readonly inflight: number;
  /** Median and 99th percentile duration (ms) of the route for the recorded exchanges. */
  readonly p50: number | undefined;
  readonly p99: number | undefined;
  readonly steps: readonly LiveStepCounters[];
}

function stepCounters(step: StepStats): LiveStepCounters {
  return {
    path: step.path,
    calls: step.calls,
    failures: step.failures,
    // Steps that started before recording began end without a start seen.
    inflight: Math.max(0, step.calls - step.ended),
    p50: step.durations.percentile(0.5),
    p99: step.durations.percentile(0.99),
  };
}

/** Every route's counters now: the route's own from `context.describe()`, its steps' from the console. */
export function readCounters(context: RouteContext, registry: StatsRegistry): LiveRouteCounters[] {
  return context.describe().routes.map((route) => {
    const stats = registry.routes.get(route.id);
    const { inflight, completed, failed } = route.counters;
    return {
      routeId: route.id,
      state: route.state,
      exchanges: completed + failed + inflight,
      failures: failed,
      inflight,
      p50: stats?.durations.percentile(0.5),
      p99: stats?.durations.percentile(0.99),
      steps: (stats?.steps ?? []).map(stepCounters),
    };
  });
}
