import type { DefaultContext } from "./context.js";
import { RoutekitError } from "./errors.js";
import type { RouteRuntime } from "./route-runtime.js";

function waitUntil(done: Promise<void>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function routesIdle(routes: readonly RouteRuntime[]): Promise<void> {
  while (routes.some((route) => route.inflight > 0)) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Graceful stop, as Camel does it: consumers that bring work in stop first (reverse start order),
 * in-flight and queued work finishes, then internal consumers (direct, seda) stop. Past the
 * timeout, in-flight work is aborted through the exchange signal and named in the error.
 */
export async function stopRoutes(
  routes: readonly RouteRuntime[],
  context: DefaultContext,
  timeoutMs: number,
  controller: AbortController | undefined,
): Promise<void> {
  const reversed = [...routes].reverse();
  for (const route of reversed) if (route.consumer?.internal !== true) await route.consumer?.stop();
  for (const route of reversed) await route.runStopHooks();
  const idle = controller === undefined ? routesIdle(routes) : context.whenIdle();
  let timedOut: string | undefined;
  if (!(await waitUntil(idle, timeoutMs))) {
    const names = reversed
      .filter((route) => route.inflight > 0)
      .map((route) => `route '${route.definition.id}' (${route.inflight} in flight)`);
    timedOut = names.length > 0 ? names.join(", ") : "queued messages";
    controller?.abort(
      new RoutekitError(
        "EXCHANGE_ABORTED",
        `Exchange aborted: the context did not stop within ${timeoutMs} ms`,
      ),
    );
    await waitUntil(idle, 2_000);
  }
  for (const route of reversed) if (route.consumer?.internal === true) await route.consumer.stop();
  if (timedOut !== undefined) {
    throw new RoutekitError(
      "SHUTDOWN_TIMEOUT",
      `Stop timed out after ${timeoutMs} ms; in-flight work aborted: ${timedOut}`,
    );
  }
}
