import type { Plugin } from "@routekit/core";
import type { AgentRuns } from "./agent-run.js";
import { createLlmEventHub } from "./llm-event-spans.js";
import { createOtelInterceptor } from "./otel-interceptor.js";
import { type OtelPluginOptions, resolveOtelOptions } from "./otel-options.js";
import { Telemetry } from "./telemetry.js";

/**
 * OpenTelemetry traces and metrics for a context: `context.use(otelPlugin())`, before
 * `addRoutes` (routes added earlier are not traced). Spans and metrics go to the global
 * providers unless others are given; with no SDK registered the plugin stays out of the way.
 * The global meter provider is read when the context starts, so register the SDK before
 * `context.start()`.
 */
export function otelPlugin(options?: OtelPluginOptions): Plugin {
  const telemetry = new Telemetry(resolveOtelOptions(options));
  const runs: AgentRuns = new Map();
  const hub = createLlmEventHub(telemetry, runs);
  return {
    name: "otel",
    interceptors: [createOtelInterceptor(telemetry, runs, hub)],
    install(context) {
      context.addLifecycle({
        start: () => telemetry.refresh(),
        stop: () => hub.release(context.events),
      });
    },
  };
}
