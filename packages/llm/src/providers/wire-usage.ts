import type { TokenUsage } from "../model-types.js";
import { isWireObject, tokenCount } from "./wire-shape.js";

/**
 * An OpenAI-compatible `usage` object as a `TokenUsage`: `prompt_tokens` already counts the cached
 * ones, which `prompt_tokens_details.cached_tokens` names.
 */
export function openAiUsage(usage: unknown): TokenUsage {
  const result: TokenUsage = {
    inputTokens: tokenCount(usage, "prompt_tokens"),
    outputTokens: tokenCount(usage, "completion_tokens"),
  };
  const details = isWireObject(usage) ? usage.prompt_tokens_details : undefined;
  if (isWireObject(details) && typeof details.cached_tokens === "number") {
    result.cachedInputTokens = Math.min(tokenCount(details, "cached_tokens"), result.inputTokens);
  }
  return result;
}

/**
 * An Anthropic `usage` object as a `TokenUsage`: its `input_tokens` leave out the tokens read from
 * the prompt cache (`cache_read_input_tokens`) and written to it (`cache_creation_input_tokens`);
 * `inputTokens` counts all three, `cachedInputTokens` the read ones, `cacheWriteInputTokens` the written.
 * A stream reports input in `message_start` and output in its last `message_delta`.
 */
export function anthropicUsage(inputUsage: unknown, outputUsage: unknown = inputUsage): TokenUsage {
  const read = tokenCount(inputUsage, "cache_read_input_tokens");
  const written = tokenCount(inputUsage, "cache_creation_input_tokens");
  const result: TokenUsage = {
    inputTokens: tokenCount(inputUsage, "input_tokens") + read + written,
    outputTokens: tokenCount(outputUsage, "output_tokens"),
  };
  if (isWireObject(inputUsage) && typeof inputUsage.cache_read_input_tokens === "number") {
    result.cachedInputTokens = read;
  }
  if (isWireObject(inputUsage) && typeof inputUsage.cache_creation_input_tokens === "number") {
    result.cacheWriteInputTokens = written;
  }
  return result;
}
