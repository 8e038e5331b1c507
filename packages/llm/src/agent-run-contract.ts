/**
 * What the llm step tells observers (`@routekit/otel`, `@routekit/console`, your own): the
 * headers it sets, the properties it keeps, and the events of an agent run. The llm step owns
 * this module; readers import it — type-only where they can (`typeof LLM_HEADERS`, `LlmEventType`,
 * `RoutekitEvents[LlmEventType]` once this package's types are loaded) — so a change here stops
 * them at compile time instead of leaving them reading names that no longer exist.
 */

/** Headers the LLM step sets on the exchange. */
export const LLM_HEADERS = {
  provider: "llm.provider",
  model: "llm.model",
  tokensIn: "llm.tokens.in",
  tokensOut: "llm.tokens.out",
  stopReason: "llm.stopReason",
  iterations: "llm.iterations",
  toolCalls: "llm.toolCalls",
  /** The run's cost in US dollars, when the model has a price in `llmPlugin({ prices })`. */
  costUsd: "llm.costUsd",
  /** With stop reason "budget": the budget that ended the run (e.g. "maxTotalTokens"). */
  budget: "llm.budget",
} as const;

/** Property holding the whole conversation after the step (to continue it). */
export const LLM_MESSAGES_PROPERTY = "llm.messages";

/** Property holding the stream of a streaming llm step (`llm(...).stream()`); transient. */
export const LLM_STREAM_PROPERTY = "llm.stream";

/**
 * The events of an agent run the llm step emits on `context.events`; their payloads are
 * `RoutekitEvents[type]` (declared by this package, see `llm-events.ts`).
 */
export const LLM_EVENT_TYPES = [
  "model-call-started",
  "model-call-completed",
  "model-call-failed",
  "tool-call-started",
  "tool-call-completed",
] as const;

/** One of `LLM_EVENT_TYPES`. */
export type LlmEventType = (typeof LLM_EVENT_TYPES)[number];
