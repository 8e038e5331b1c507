import type { StepDefinition, StepInterceptor } from "@routekit/core";
import type { AgentRuns } from "./agent-runs.js";
import type { StatsRegistry } from "./step-stats.js";

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

/** An llm step: `to("llm:...")`. */
function isLlmStep(definition: StepDefinition): boolean {
  return definition.type === "to" && definition.uri.startsWith("llm:");
}

/**
 * The console's step interceptor: notes every step as it is compiled (its counters, filled from
 * step events while the console records) and wraps only llm steps, each run of which becomes an
 * agent run. Every other step runs as compiled, with nothing around it.
 */
export function createConsoleInterceptor(registry: StatsRegistry, agentRuns: AgentRuns): StepInterceptor {
  return {
    name: "console",
    wrapStep(step, next) {
      if (isSilentLog(step.definition)) return next;
      const stats = registry.addStep(step);
      return isLlmStep(step.definition) ? agentRuns.around(stats, next) : next;
    },
  };
}
