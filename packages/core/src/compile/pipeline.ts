import { toError } from "../errors/errors.js";
import type { EventBus } from "../exchange/events.js";
import { runtime } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import { runOnLoopUntilHot } from "./hot-runner.js";
import { type FailurePolicy, type PipelineChannel, pipelineChannel } from "./pipeline-channel.js";

export type { FailurePolicy } from "./pipeline-channel.js";

/**
 * The routes whose error handling is switched off for an exchange (inside doTry, circuitBreaker).
 * Kept under a symbol in the properties, so copies made inside (split parts, multicast branches)
 * share it, and invisible to expressions and serialisation.
 */
const SUSPENDED = Symbol("routekit.errorHandlingSuspended");

type SuspendableProperties = Record<string | symbol, unknown> & { [SUSPENDED]?: string[] };

/**
 * Runs `block` with route `routeId`'s error handling switched off for this exchange: a failure
 * inside reaches the caller of `block` untouched (no redelivery, no onException), as a doTry or a
 * circuit breaker needs. Routes called from inside (`direct:`) keep their own error handling.
 */
export function withoutErrorHandling(
  exchange: Exchange,
  routeId: string,
  block: () => void | Promise<void>,
): void | Promise<void> {
  const properties = exchange.properties as SuspendableProperties;
  let scopes = properties[SUSPENDED];
  if (scopes === undefined) {
    scopes = [];
    properties[SUSPENDED] = scopes;
  }
  const routes = scopes;
  routes.push(routeId);
  const leave = (): void => {
    routes.splice(routes.lastIndexOf(routeId), 1);
  };
  let result: void | Promise<void>;
  try {
    result = block();
  } catch (error) {
    leave();
    exchange.error = toError(error);
    return;
  }
  if (result === undefined) {
    leave();
    return;
  }
  return result.then(leave, (error: unknown) => {
    leave();
    exchange.error = toError(error);
  });
}

function errorHandlingSuspended(exchange: Exchange, routeId: string): boolean {
  return (exchange.properties as SuspendableProperties)[SUSPENDED]?.includes(routeId) === true;
}

/** A pipeline that nothing observes (the rejection pipeline): its steps emit no step events. */
const UNOBSERVED: Pick<EventBus, "observingSteps" | "emit"> = {
  observingSteps: false,
  emit: () => undefined,
};

/** Nothing to run: a block whose steps were all dropped at compile time (e.g. `log:x?level=off`). */
const nothing: Processor = () => undefined;

/**
 * Compiles steps into one processor that runs them in order: the channel around every step. Its
 * layers, outermost first: the route's failure policy, step events (while someone listens to
 * them: `events.observingSteps` is read once per run of the block otherwise), then the
 * interceptors the compiler already wrapped into each processor (`pipeline-channel.ts`).
 * Synchronous steps run one after the other — in the loop every pipeline shares, or, once the
 * pipeline runs often enough, as straight-line code generated for it (`hot-runner.ts` and
 * `generated-runner.ts` say when and why) — and a promise is awaited only when a step returns
 * one, so a synchronous route allocates none.
 */
export function createPipeline(
  processors: readonly Processor[],
  labels: readonly string[],
  routeId: string,
  policy: FailurePolicy,
  events: Pick<EventBus, "observingSteps" | "emit"> = UNOBSERVED,
  /** False for a block that runs rarely (the rejection pipeline): no runner is generated for it. */
  generate = true,
): Processor {
  if (processors.length === 0) return nothing;
  const channel = pipelineChannel(processors, labels, routeId, policy, events, errorHandlingSuspended);
  const first = processors.length === 1 ? singleStep(channel, processors[0]!, events) : loopEntry(channel);
  return generate ? runOnLoopUntilHot(channel, processors, events, first) : first;
}

/** The loop from the first step. */
function loopEntry(channel: PipelineChannel): Processor {
  const loop = channel.loop;
  return (exchange: Exchange) => loop(runtime(exchange), 0, 0);
}

/** One step (a typical sub-route): no loop bookkeeping on the way in. */
function singleStep(
  channel: PipelineChannel,
  only: Processor,
  events: Pick<EventBus, "observingSteps">,
): Processor {
  const { fail, observed } = channel;
  return (exchange: Exchange) => {
    const target = runtime(exchange);
    if (target.halted) return;
    let result: void | Promise<void>;
    try {
      result = events.observingSteps ? observed(target, 0) : only(target);
    } catch (error) {
      return fail(target, error, 0, 0);
    }
    if (result !== undefined) {
      return result.then(
        () => (target.error !== undefined ? fail(target, target.error, 0, 0) : undefined),
        (error: unknown) => fail(target, error, 0, 0),
      );
    }
    if (target.error !== undefined) return fail(target, target.error, 0, 0);
  };
}
