import { defineComponent } from "@routekit/core";
import "./as-llm-tool.js";
import "./governance/run-completed-event.js";
import { LlmEndpoint } from "./llm-endpoint.js";
// The events this module emits are declared on core's RoutekitEvents there.
import type {} from "./llm-events.js";
import { llmStepOptions } from "./llm-step-options.js";

/**
 * `llm:MODEL?tools=a,b&maxIterations=6` — the LLM step: body in = the prompt or a message list,
 * body out = the final assistant text; headers out = provider, model, tokens, stop reason,
 * iterations. Tool calls are dispatched through the context's tool registry.
 */
export const llmComponent = defineComponent({
  scheme: "llm",
  // The model is called over the network; each send is an agent run (otel, the console).
  traits: { inProcess: false, agent: true },
  options: llmStepOptions,
  createEndpoint(address, context) {
    const endpoint = new LlmEndpoint(address, context);
    return {
      uri: address.uri,
      start: () => endpoint.start(),
      stop: () => endpoint.stop(),
      send: (exchange) => endpoint.send(exchange),
    };
  },
});
