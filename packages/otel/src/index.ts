// Setup: context.use(otelPlugin())

// The names on spans and metrics
export { GEN_AI, GEN_AI_METRIC, GEN_AI_OPERATION, ROUTEKIT, SEMCONV } from "./attribute-names.js";
export { TRACE_SLOT_PROPERTY } from "./exchange-slot.js";
export { OtelError, type OtelErrorCode } from "./otel-error.js";
export type { OtelPluginOptions } from "./otel-options.js";
export { otelPlugin } from "./otel-plugin.js";
