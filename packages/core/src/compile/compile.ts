import type { RouteProcessor } from "../components/component.js";
import { compileExpression, compilePredicate } from "../expressions/index.js";
import type { Processor } from "../model/exchange.js";
import {
  describeStep,
  type ErrorHandlingDefinition,
  type RouteDefinition,
  type StepDefinition,
} from "../model/route-definition.js";
import type { CompileContext } from "./compile-context.js";
import { createFailurePolicy, givingUp } from "./error-policy.js";
import { createPipeline, type FailurePolicy } from "./pipeline.js";
import { REJECTION_LABEL, rejectionStep } from "./route-rejection.js";
import { shapeGuard } from "./shape-guard.js";
import { isSilentLog } from "./silent-log.js";
import { type CompileScope, stepDescriptorFor } from "./step-compilers.js";
import { interceptStep } from "./step-interceptor.js";

/**
 * Compiles a route definition into its processor. Every block (the route and each nested block)
 * becomes one pipeline — the channel around each step: the route's failure policy, step events,
 * then the context's interceptors (message history, plugins) in the order they were added, each
 * wrapped here once per step. Cross-cutting work is this one mechanism, not code inside each
 * processor. Interceptors are read when the route is added: routes added before an interceptor
 * keep running without it.
 */
export function compileRoute(
  route: RouteDefinition,
  builderErrorHandling: ErrorHandlingDefinition,
  context: CompileContext,
  stopHooks: Array<() => void | Promise<void>>,
): CompiledRoute {
  const compileBlock = (
    steps: readonly StepDefinition[],
    prefix: string,
    policy: FailurePolicy,
  ): Processor => {
    const processors: Processor[] = [];
    const labels: string[] = [];
    const add = (step: StepDefinition, index: number, path: string, processor: Processor): void => {
      const intercepted =
        interceptors.length === 0
          ? processor
          : interceptStep(
              interceptors,
              { routeId: route.id, path, label: describeStep(step, index), index, definition: step },
              processor,
            );
      // A log step at level off does nothing: it is left out, unless an interceptor wrapped it.
      if (intercepted === processor && isSilentLog(step)) return;
      processors.push(intercepted);
      labels.push(path);
    };
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index]!;
      const label = prefix + describeStep(step, index);
      const descriptor = stepDescriptorFor(step.type, route.id, label);
      const guard = shapeGuard(route.id, label, descriptor.shape, step);
      const scope: CompileScope = {
        context,
        routeId: route.id,
        label,
        compileSteps: (nested, blockLabel) => {
          guard.block(blockLabel);
          return compileBlock(nested, `${blockLabel} > `, policy);
        },
        restOfBlock: () => {
          guard.rest();
          return compileBlock(steps.slice(index + 1), `${label} > `, policy);
        },
        endpoint: (uri) => {
          context.noteEndpointUse(uri, `Route '${route.id}' step ${label}`);
          return context.endpoint(uri);
        },
        expression: compileExpression as CompileScope["expression"],
        predicate: compilePredicate,
        onRouteStop: (hook) => stopHooks.push(hook),
      };
      add(step, index, label, descriptor.compile(step as never, scope));
      if (guard.done()) break;
    }
    return createPipeline(processors, labels, route.id, policy, context.events);
  };
  const interceptors = [...context.interceptors];
  // Steps inside onException clauses run without the route's handlers: an error there propagates.
  const policy = createFailurePolicy(route, builderErrorHandling, context, (steps, label) =>
    compileBlock(steps, `${label} > `, givingUp(route.id)),
  );
  // A message the route will never process (dropped at shutdown) meets the same error handling
  // as if its first step had failed with the reason: onException clauses, dead letter channel.
  const rejection = createPipeline([rejectionStep], [REJECTION_LABEL], route.id, policy, undefined, false);
  return { pipeline: compileBlock(route.steps, "", policy), rejection };
}

/** A route compiled: its pipeline, and the error handling of a message it will not process. */
export interface CompiledRoute {
  readonly pipeline: RouteProcessor;
  /** Fails the exchange with the reason set by `setRejection`, through the route's error handling. */
  readonly rejection: Processor;
}
