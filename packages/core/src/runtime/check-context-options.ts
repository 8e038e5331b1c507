import { RoutekitError } from "../errors/errors.js";
import { describeArgument } from "./check-extension.js";
import type { ExchangeInit, StopOptions } from "./context-types.js";

/** Checks the deadline options of `createExchange` / `requestExchange`: `timeoutMs` and `signal`. */
export function checkExchangeDeadline(init: ExchangeInit): void {
  if (init.timeoutMs !== undefined) checkTimeout(init.timeoutMs);
  if (init.signal !== undefined) checkSignal(init.signal);
  if (init.wire !== undefined) checkWire(init.wire, init.body);
}

function checkWire(wire: unknown, body: unknown): void {
  if (body !== undefined) {
    throw new RoutekitError(
      "EXCHANGE_INVALID",
      `createExchange: give 'body' or 'wire', not both (found a body of type ${typeof body} and a wire form)`,
    );
  }
  const given = wire as { content?: unknown; decode?: unknown } | null;
  if (
    typeof given !== "object" ||
    given === null ||
    !(given.content instanceof Uint8Array) ||
    typeof given.decode !== "function"
  ) {
    throw new RoutekitError(
      "EXCHANGE_INVALID",
      `createExchange: option 'wire' expects { content: Uint8Array, contentType, decode: function } (found ${describeArgument(wire)})`,
    );
  }
}

function checkTimeout(timeoutMs: unknown): void {
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new RoutekitError(
      "EXCHANGE_INVALID",
      `createExchange: option 'timeoutMs' expects a number of milliseconds >= 0 (found ${describeArgument(timeoutMs)})`,
    );
  }
}

/** The stop timeout of `stop(options)` / `stopRoute(id, options)`; a clear error for anything else. */
export function checkStopOptions(options: StopOptions, method: string): number {
  if (typeof options !== "object" || options === null) {
    throw new RoutekitError(
      "CONTEXT_STATE",
      `${method}() expects options like { timeoutMs: 5000 } (found ${describeArgument(options)})`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 45_000;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RoutekitError(
      "CONTEXT_STATE",
      `${method}(): option 'timeoutMs' expects a finite number of milliseconds >= 0 (found ${describeArgument(timeoutMs)})`,
    );
  }
  return timeoutMs;
}

function checkSignal(signal: unknown): void {
  if (!(signal instanceof AbortSignal)) {
    throw new RoutekitError(
      "EXCHANGE_INVALID",
      `createExchange: option 'signal' expects an AbortSignal (found ${describeArgument(signal)})`,
    );
  }
}
