import type { LifecycleHook, RouteContext } from "@routekit/core";
import { messageOf } from "@routekit/core/internal";

/**
 * Recovery passes every `everyMs` while the context runs (`context.agents.recover()`): runs whose
 * instance died are taken up here, approvals past their timeout become denials. One pass at a time;
 * the timer keeps no process alive and is cleared when the context stops.
 */
export function recoveryLifecycle(context: RouteContext, everyMs: number): LifecycleHook {
  let timer: ReturnType<typeof setInterval> | undefined;
  let pass: Promise<unknown> | undefined;
  return {
    start() {
      if (everyMs === 0) return;
      timer = setInterval(() => {
        pass ??= context.agents
          .recover()
          .catch((error: unknown) => {
            const reason = messageOf(error);
            context.logger.warn(`durable runs: a recovery pass failed: ${reason}`);
          })
          .finally(() => {
            pass = undefined;
          });
      }, everyMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await pass;
    },
  };
}
