import { definePropertyKey, type Exchange } from "@routekit/core";
import { LLM_STREAM_PROPERTY } from "./agent-run-contract.js";
import type { LlmStream } from "./tool-loop/stream-tool-loop.js";

/** A live stream belongs to this process: transient, never stored nor sent. */
export const LLM_STREAM_KEY = definePropertyKey<LlmStream>({ name: LLM_STREAM_PROPERTY, transient: true });

/**
 * The stream of the streaming llm step this exchange went through, or undefined. The step also
 * makes it the body (until the run ends and the answer replaces it); this accessor still finds it
 * after a later step changed the body.
 */
export function llmStreamOf(exchange: Exchange): LlmStream | undefined {
  const value = exchange.properties[LLM_STREAM_PROPERTY];
  return isLlmStream(value) ? value : undefined;
}

function isLlmStream(value: unknown): value is LlmStream {
  return (
    typeof value === "object" &&
    value !== null &&
    Symbol.asyncIterator in value &&
    "textStream" in value &&
    "cancel" in value
  );
}
