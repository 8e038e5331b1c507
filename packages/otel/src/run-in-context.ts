import { context } from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { enterSlot, type TraceSlot } from "./exchange-slot.js";

/** What ends a slot's run: made once per route or step, called with the run's slot. */
export type Settle = (slot: TraceSlot, exchange: Exchange, thrown: unknown) => void;

/**
 * Runs `next` with `slot` on the exchange — and, with `activate`, with the slot's context as the
 * current OpenTelemetry context, for code that reads it (processors, instrumented clients) — and
 * calls `settle` once it is done: at once when it completed synchronously (no promise and no
 * closure is made), else when its promise settles, with what it threw or rejected with, if
 * anything. The failure still propagates.
 */
export function runInSlot(
  slot: TraceSlot,
  activate: boolean,
  next: Processor,
  exchange: Exchange,
  settle: Settle,
): void | Promise<void> {
  enterSlot(exchange, slot);
  let result: void | Promise<void>;
  try {
    result = activate ? context.with(slot.context, next, undefined, exchange) : next(exchange);
  } catch (error) {
    settle(slot, exchange, error);
    throw error;
  }
  if (result === undefined) {
    settle(slot, exchange, undefined);
    return;
  }
  return result.then(
    () => settle(slot, exchange, undefined),
    (error: unknown) => {
      settle(slot, exchange, error);
      throw error;
    },
  );
}

/** Runs `next` and calls `done` when it is done, without a slot or a context change. */
export function runThen(
  next: Processor,
  exchange: Exchange,
  done: (exchange: Exchange, thrown: unknown, started: number) => void,
  started: number,
): void | Promise<void> {
  let result: void | Promise<void>;
  try {
    result = next(exchange);
  } catch (error) {
    done(exchange, error, started);
    throw error;
  }
  if (result === undefined) {
    done(exchange, undefined, started);
    return;
  }
  return result.then(
    () => done(exchange, undefined, started),
    (error: unknown) => {
      done(exchange, error, started);
      throw error;
    },
  );
}
