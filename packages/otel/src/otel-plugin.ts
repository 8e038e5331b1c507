import type { Plugin } from "@routekit/core";
import type { AgentRuns } from "./agent-run.js";
import { subscribeDurableRuns } from "./durable-run-spans.js";
import { createLlmEventHub } from "./llm-event-spans.js";
import { createOtelInterceptor } from "./otel-interceptor.js";
import { type OtelPluginOptions, resolveOtelOptions } from "./otel-options.js";
import { Telemetry } from "./telemetry.js";

/**
 * OpenTelemetry traces and metrics for a context: `context.use(otelPlugin())`, before
 * `addRoutes`. Spans and metrics go to the global providers unless others are given. Register the
 * SDK before adding routes: routes added while no tracer or meter provider is registered are left
 * exactly as they are (the context warns when it starts with a provider registered since), and
 * the meter is read when the context starts. With no propagator given or registered, trace
 * context crosses brokers and HTTP as W3C trace context.
 */
export function otelPlugin(options?: OtelPluginOptions): Plugin {
  const telemetry = new Telemetry(resolveOtelOptions(options));
  const runs: AgentRuns = new Map();
  const hub = createLlmEventHub(telemetry, runs);
  return {
    name: "otel",
    interceptors: [createOtelInterceptor(telemetry, runs, hub)],
    install(context) {
      telemetry.traitsOf = (uri) => context.componentTraits(uri);
      let durable: (() => void) | undefined;
      context.addLifecycle({
        start: () => {
          telemetry.refresh();
          durable ??= subscribeDurableRuns(context.events, telemetry, runs);
          const warning = telemetry.unobservedWarning();
          if (warning !== undefined) context.logger.warn(warning);
          if (telemetry.tracing && telemetry.ownPropagator) {
            context.logger.info(
              "otelPlugin: no OpenTelemetry propagator is registered; routekit's sends carry W3C trace context (traceparent, tracestate). Register one (propagation.setGlobalPropagator(...), or the SDK's textMapPropagator) or pass otelPlugin({ propagator }) to choose another",
            );
          }
        },
        stop: () => {
          hub.release(context.events);
          durable?.();
          durable = undefined;
        },
      });
    },
  };
}
