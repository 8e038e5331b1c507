import type { Plugin } from "@routekit/core";
import type { AgentRuns } from "./agent-run.js";
import { subscribeLlmEvents } from "./llm-event-spans.js";
import { createOtelInterceptor } from "./otel-interceptor.js";
import { type OtelPluginOptions, resolveOtelOptions } from "./otel-options.js";
import { Telemetry } from "./telemetry.js";

/**
 * OpenTelemetry traces and metrics for a context: `context.use(otelPlugin())`, before
 * `addRoutes` (routes added earlier are not traced). Spans and metrics go to the global
 * providers unless others are given; with no SDK registered the plugin stays out of the way.
 * The global meter provider and the llm step's events are read when the context starts, so
 * register the SDK before `context.start()`.
 */
export function otelPlugin(options?: OtelPluginOptions): Plugin {
  const telemetry = new Telemetry(resolveOtelOptions(options));
  const runs: AgentRuns = new Map();
  return {
    name: "otel",
    interceptors: [createOtelInterceptor(telemetry, runs)],
    install(context) {
      let unsubscribe: (() => void) | undefined;
      context.addLifecycle({
        start() {
          telemetry.refresh();
          if (telemetry.tracing || telemetry.instruments !== undefined)
            unsubscribe = subscribeLlmEvents(context.events, telemetry, runs);
        },
        stop() {
          unsubscribe?.();
          unsubscribe = undefined;
        },
      });
    },
  };
}
