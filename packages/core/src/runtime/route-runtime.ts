import { setRejection } from "../compile/route-rejection.js";
import { interceptRoute } from "../compile/step-interceptor.js";
import type { Consumer, RouteProcessor } from "../components/component.js";
import { toError } from "../errors/errors.js";
import { releaseExchange } from "../exchange/exchange-deadline.js";
import { type RuntimeExchange, runtime } from "../exchange/runtime-exchange.js";
import { originalOf } from "../exchange/wire-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { RouteDefinition } from "../model/route-definition.js";
import type { ContextInternals } from "./context-internals.js";

/** A route as it runs: its compiled pipeline, its consumer and its counters. */
export class RouteRuntime {
  readonly definition: RouteDefinition;
  #inflight = 0;
  #completed = 0;
  #failed = 0;
  state: "stopped" | "started" = "stopped";
  consumer: Consumer | undefined = undefined;
  /** Runs one exchange through the route: never throws; a failure stays on `exchange.error`. */
  readonly process: RouteProcessor;

  /**
   * Fails a message the route will never process with `reason`, through the route's error
   * handling (see `ConsumerRoute.reject`).
   */
  readonly reject: (exchange: Exchange, reason: Error) => void | Promise<void>;
  readonly #stopHooks: Array<() => void | Promise<void>> = [];

  constructor(
    definition: RouteDefinition,
    pipeline: Processor,
    rejection: Processor,
    context: ContextInternals,
    keepOriginal: boolean,
  ) {
    this.definition = definition;
    // Interceptors with `wrapRoute` (tracing) wrap the whole route; without any, nothing is added.
    const routed = interceptRoute(context.interceptors, definition, pipeline);
    this.process = this.#track(routed, context, keepOriginal);
    const rejecting = this.#track(rejection, context, false);
    this.reject = (exchange, reason) => {
      setRejection(exchange, reason);
      return rejecting(exchange);
    };
  }

  /** Exchanges inside this route now. */
  get inflight(): number {
    return this.#inflight;
  }

  /** Exchanges that left this route without an error (since the route was added). */
  get completed(): number {
    return this.#completed;
  }

  /** Exchanges that left this route with an error (since the route was added). */
  get failed(): number {
    return this.#failed;
  }

  /** Wraps a compiled pipeline with in-flight tracking, events and the end of the exchange. */
  #track(pipeline: Processor, context: ContextInternals, keepOriginal: boolean): RouteProcessor {
    const id = this.definition.id;
    const events = context.events;
    const finish = (target: RuntimeExchange, previous: string | undefined, started: number): void => {
      if (target.haltedIn === id) target.haltedIn = undefined;
      this.#inflight--;
      if (target.error === undefined) this.#completed++;
      else this.#failed++;
      target.routeId = previous;
      // Only the outermost route counts the exchange as pending work of the context, and its end
      // is the exchange's end: its own deadline (timer, listeners) is released here.
      if (previous === undefined) {
        if (target.deadline !== undefined) releaseExchange(target);
        context.trackPending(-1);
      }
      if (started !== 0) {
        const durationMs = performance.now() - started;
        if (target.error === undefined)
          events.emit("exchange-completed", { exchange: target, routeId: id, durationMs });
        else
          events.emit("exchange-failed", { exchange: target, routeId: id, durationMs, error: target.error });
      }
    };
    const observed = (target: RuntimeExchange): number => {
      if (events.has("exchange-created")) events.emit("exchange-created", { exchange: target, routeId: id });
      return events.has("exchange-completed") || events.has("exchange-failed") ? performance.now() : 0;
    };
    return (exchange: Exchange) => {
      const target = runtime(exchange);
      const previous = target.routeId;
      target.routeId = id;
      if (keepOriginal && target.original === undefined) {
        target.original = originalOf(target);
      }
      this.#inflight++;
      if (previous === undefined) context.trackPending(1);
      const started = events.quiet ? 0 : observed(target);
      let result: void | Promise<void>;
      try {
        result = pipeline(target);
      } catch (error) {
        target.error = toError(error);
        result = undefined;
      }
      if (result !== undefined) {
        return result.then(
          () => finish(target, previous, started),
          (error: unknown) => {
            target.error = toError(error);
            finish(target, previous, started);
          },
        );
      }
      finish(target, previous, started);
    };
  }

  /** Work to run when the route stops taking new work (e.g. force-completing aggregations). */
  onStop(hook: () => void | Promise<void>): void {
    this.#stopHooks.push(hook);
  }

  async runStopHooks(): Promise<void> {
    for (const hook of this.#stopHooks) await hook();
  }
}
