import type { Exchange, Processor, StepDefinition, StepInterceptor } from "@routekit/core";
import type { AgentRuns } from "./agent-runs.js";
import type { ExchangeRecorder } from "./exchange-recorder.js";
import type { StatsRegistry, StepStats } from "./step-stats.js";

/**
 * A log step at level off does nothing; left unwrapped, the compiler leaves it out of the route, so
 * the console adds no step where there was none.
 */
function isSilentLog(definition: StepDefinition): boolean {
  if (definition.type === "log") return definition.level === "off";
  return (
    definition.type === "to" && definition.uri.startsWith("log:") && /[?&]level=off(&|$)/.test(definition.uri)
  );
}

/** A step that is an llm step: `to("llm:...")`. */
function isLlmStep(stats: StepStats): boolean {
  const definition = stats.definition;
  return definition.type === "to" && definition.uri.startsWith("llm:");
}

/**
 * The console's step interceptor: counters on every step, a timeline for the recorded exchanges,
 * and an agent run around every llm step (events from the llm step are listened to only while
 * one runs).
 */
export function createConsoleInterceptor(
  registry: StatsRegistry,
  recorder: ExchangeRecorder,
  agentRuns: AgentRuns,
): StepInterceptor {
  return {
    name: "console",
    wrapStep(step, next) {
      if (isSilentLog(step.definition)) return next;
      const stats = registry.addStep(step);
      const entry = stats.topLevel && step.index === 0;
      const routeId = step.routeId;
      const inner: Processor = isLlmStep(stats) ? agentRuns.around(stats, next) : next;
      // An exchange that is not recorded costs three counters: no clock, no allocation.
      const ended = (exchange: Exchange): void => {
        stats.ended++;
        if (exchange.error !== undefined) stats.failures++;
      };
      return (exchange: Exchange) => {
        if (recorder.active !== 0 || (entry && recorder.tokens > 0)) {
          const live = recorder.liveRecord(exchange, entry, routeId);
          if (live !== undefined) return recorder.runStep(live, stats, exchange, inner);
        }
        stats.calls++;
        let result: void | Promise<void>;
        try {
          result = inner(exchange);
        } catch (error) {
          stats.ended++;
          stats.failures++;
          throw error;
        }
        if (result === undefined) return ended(exchange);
        return result.then(
          () => ended(exchange),
          (error: unknown) => {
            stats.ended++;
            stats.failures++;
            throw error;
          },
        );
      };
    },
  };
}
