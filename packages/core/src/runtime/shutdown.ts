import type { Endpoint } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import type { ShutdownParticipant } from "./context-internals.js";
import type { LifecycleHook, StopBudget } from "./context-types.js";
import type { RouteRuntime } from "./route-runtime.js";
import type { StopClock } from "./stop-clock.js";

/** What stopping routes needs from the context. */
export interface StopTarget {
  whenIdle(): Promise<void>;
  readonly participants: readonly ShutdownParticipant[];
}

/** Part of the grace that aborted in-flight work gets to end before callers are told it was dropped. */
const ABORT_GRACE_MS = 1_000;

/** Resolves when the routes have nothing in flight; stops looking when the stop's time is up. */
function routesIdle(routes: readonly RouteRuntime[], clock: StopClock): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (routes.every((route) => route.inflight === 0)) resolve();
      else if (clock.untilEnd() > 0) setTimeout(check, 5).unref();
    };
    check();
  });
}

/** Runs `work`, turning a synchronous throw into a rejection. */
function attempt(work: () => void | Promise<void>): void | Promise<void> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}

function inflightOf(routes: readonly RouteRuntime[]): string[] {
  return routes
    .filter((route) => route.inflight > 0)
    .map((route) => `route '${route.definition.id}' (${route.inflight} in flight)`);
}

/**
 * Graceful stop, as Camel does it: consumers that bring work in stop first (reverse start order),
 * in-flight and queued work finishes, then internal consumers (direct, seda) stop. Past the
 * timeout, in-flight work is aborted through the exchange signal, every queued message and every
 * waiting producer is failed with an error saying it was dropped (components take part through
 * `ShutdownParticipant`), and the error names the routes with their in-flight counts and what
 * was dropped. Every wait is bounded by `clock`: a consumer whose stop hangs is left behind.
 */
export async function stopRoutes(
  routes: readonly RouteRuntime[],
  target: StopTarget,
  clock: StopClock,
  controller: AbortController | undefined,
): Promise<void> {
  const reversed = [...routes].reverse();
  const late: string[] = [];
  for (const route of reversed) {
    const consumer = route.consumer;
    if (consumer === undefined || consumer.internal === true) continue;
    if (
      !(await clock.within(
        attempt(() => consumer.stop()),
        clock.untilTimeout(),
      ))
    )
      late.push(`the consumer of route '${route.definition.id}' did not stop`);
  }
  for (const route of reversed) {
    if (
      !(await clock.within(
        attempt(() => route.runStopHooks()),
        clock.untilTimeout(),
      ))
    )
      late.push(`the stop hooks of route '${route.definition.id}' did not finish`);
  }
  const idle = controller === undefined ? routesIdle(routes, clock) : target.whenIdle();
  let failure: string | undefined;
  if (!(await clock.within(idle, clock.untilTimeout()))) {
    const inflight = inflightOf(reversed);
    const reason = new RoutekitError(
      "EXCHANGE_ABORTED",
      `Exchange aborted: the context did not stop within ${clock.timeoutMs} ms`,
    );
    controller?.abort(reason);
    const dropped: string[] = [];
    if (controller !== undefined) {
      for (const participant of target.participants) {
        const summary = participant.aborted(reason);
        if (summary !== undefined) dropped.push(summary);
      }
    }
    await clock.within(idle, Math.min(ABORT_GRACE_MS, clock.untilEnd()));
    const stuck = inflightOf(reversed);
    if (controller !== undefined) {
      for (const participant of target.participants) {
        const summary = participant.abandoned();
        if (summary !== undefined) dropped.push(summary);
      }
    }
    failure =
      `in flight at the timeout: ${inflight.length > 0 ? inflight.join(", ") : "none"}` +
      `; dropped: ${dropped.length > 0 ? dropped.join(", ") : "none"}` +
      (stuck.length > 0 ? `; still running after the abort (left behind): ${stuck.join(", ")}` : "");
  }
  for (const route of reversed) {
    const consumer = route.consumer;
    if (consumer?.internal === true)
      await clock.within(
        attempt(() => consumer.stop()),
        clock.untilEnd(),
      );
  }
  if (failure !== undefined || late.length > 0) {
    throw new RoutekitError(
      "SHUTDOWN_TIMEOUT",
      `Stop timed out after ${clock.timeoutMs} ms; ${[failure, ...late].filter((part) => part !== undefined).join("; ")}`,
    );
  }
}

/** The stop hooks of a context in the order they run: endpoints, then lifecycle hooks last-first. */
export function stopHooksOf(
  endpoints: Iterable<Endpoint>,
  lifecycle: readonly LifecycleHook[],
  labelOf: (hook: LifecycleHook) => string | undefined,
): StopHook[] {
  const hooks: StopHook[] = [];
  for (const endpoint of endpoints) {
    const stop = endpoint.stop;
    if (stop !== undefined)
      hooks.push({ label: `endpoint '${endpoint.uri}'`, stop: (budget) => stop.call(endpoint, budget) });
  }
  for (let index = lifecycle.length - 1; index >= 0; index--) {
    const hook = lifecycle[index]!;
    const stop = hook.stop;
    if (stop !== undefined)
      hooks.push({
        label: labelOf(hook) ?? `lifecycle hook #${index + 1}`,
        stop: (budget) => stop.call(hook, budget),
      });
  }
  return hooks;
}

/** A stop hook to run within the stop's time: a label for the error and the hook itself. */
export interface StopHook {
  readonly label: string;
  readonly stop: (budget: StopBudget) => void | Promise<void>;
}

/**
 * Runs stop hooks in order, each with the time left of the stop and a signal that fires when it
 * is up. A hook that has not finished by then is left behind (and named in the result); later
 * hooks still run, with an aborted signal, so they can give up at once (destroy sockets).
 */
export async function runStopHooks(hooks: readonly StopHook[], clock: StopClock): Promise<string[]> {
  const late: string[] = [];
  const signal = clock.endSignal();
  for (const hook of hooks) {
    let result: void | Promise<void>;
    try {
      result = hook.stop({ timeoutMs: clock.untilEnd(), signal });
    } catch (error) {
      late.push(`${hook.label} failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (result === undefined) continue;
    const settled = result.then(
      () => undefined,
      (error: unknown) => `${hook.label} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    const outcome = await clock.settledWithin(settled, clock.untilEnd());
    if (outcome === "late") late.push(`${hook.label} did not finish within the stop's time`);
    else if (outcome !== undefined) late.push(outcome);
  }
  clock.dispose();
  return late;
}
