import type { StepDefinition, StepInterceptor } from "@routekit/core";
import type { ComponentTraits } from "@routekit/core/internal";
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

/** What an endpoint's component declares (`context.componentTraits`). */
export type TraitsOf = (uri: string) => ComponentTraits | undefined;

/** A step that runs an agent: a send to an endpoint whose component declares `agent` (`to("llm:...")`). */
function isAgentStep(definition: StepDefinition, traitsOf: TraitsOf): boolean {
  return definition.type === "to" && traitsOf(definition.uri)?.agent === true;
}

/**
 * The console's step interceptor: notes every step as it is compiled (its counters, filled from
 * step events while the console records) and wraps only agent steps (llm steps), each run of
 * which becomes an agent run. Every other step runs as compiled, with nothing around it.
 */
export function createConsoleInterceptor(
  registry: StatsRegistry,
  agentRuns: AgentRuns,
  traitsOf: TraitsOf,
): StepInterceptor {
  return {
    name: "console",
    wrapStep(step, next) {
      if (isSilentLog(step.definition)) return next;
      const stats = registry.addStep(step);
      return isAgentStep(step.definition, traitsOf) ? agentRuns.around(stats, next) : next;
    },
  };
}
