import type { RouteProcessor } from "../components/component.js";
import type { ContextInternals } from "../runtime/context-internals.js";
import { createFailurePolicy, givingUp } from "../errors/error-policy.js";
import type { Processor } from "../model/exchange.js";
import { compileExpression, compilePredicate } from "../expressions/index.js";
import { createPipeline, type FailurePolicy } from "./pipeline.js";
import {
  describeStep,
  type ErrorHandlingDefinition,
  type RouteDefinition,
  type StepDefinition,
} from "../model/route-definition.js";
import { REJECTION_LABEL, rejectionStep } from "./route-rejection.js";
import { type CompileScope, compilerFor } from "../dsl/verbs.js";

/**
 * Compiles a route definition into its processor. Every block (the route and each nested block)
 * becomes one pipeline sharing the route's failure policy: error handling is one mechanism
 * around every step, not code inside each processor.
 */
export function compileRoute(
  route: RouteDefinition,
  builderErrorHandling: ErrorHandlingDefinition,
  context: ContextInternals,
  stopHooks: Array<() => void | Promise<void>>,
): CompiledRoute {
  const compileBlock = (
    steps: readonly StepDefinition[],
    prefix: string,
    policy: FailurePolicy,
  ): Processor => {
    let restTaken = false;
    const scopeFor = (label: string, index: number): CompileScope => ({
      context,
      routeId: route.id,
      label,
      compileSteps: (nested, blockLabel) => compileBlock(nested, `${blockLabel} > `, policy),
      restOfBlock: () => {
        restTaken = true;
        return compileBlock(steps.slice(index + 1), `${label} > `, policy);
      },
      endpoint: (uri) => {
        context.noteEndpointUse(uri, `Route '${route.id}' step ${label}`);
        return context.endpoint(uri);
      },
      expression: compileExpression as CompileScope["expression"],
      predicate: compilePredicate,
      onRouteStop: (hook) => stopHooks.push(hook),
    });
    const processors: Processor[] = [];
    const labels: string[] = [];
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      const label = prefix + describeStep(step, index);
      if (step.type === "filter" && step.steps === undefined) {
        // `.filter(p)` without a block guards the rest of this block.
        const rest = compileBlock(steps.slice(index + 1), `${label} > `, policy);
        const predicate = compilePredicate(step.predicate);
        processors.push((exchange) => (predicate(exchange) ? rest(exchange) : undefined));
        labels.push(label);
        break;
      }
      processors.push(compilerFor(step.type, route.id, label)(step as never, scopeFor(label, index)));
      labels.push(label);
      if (restTaken) break;
    }
    return createPipeline(processors, labels, route.id, policy);
  };
  // Steps inside onException clauses run without the route's handlers: an error there propagates.
  const policy = createFailurePolicy(route, builderErrorHandling, context, (steps, label) =>
    compileBlock(steps, `${label} > `, givingUp(route.id)),
  );
  // A message the route will never process (dropped at shutdown) meets the same error handling
  // as if its first step had failed with the reason: onException clauses, dead letter channel.
  const rejection = createPipeline([rejectionStep], [REJECTION_LABEL], route.id, policy);
  return { pipeline: compileBlock(route.steps, "", policy), rejection };
}

/** A route compiled: its pipeline, and the error handling of a message it will not process. */
export interface CompiledRoute {
  readonly pipeline: RouteProcessor;
  /** Fails the exchange with the reason set by `setRejection`, through the route's error handling. */
  readonly rejection: Processor;
}
