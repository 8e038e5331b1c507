import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { conversationTokens } from "./estimate-tokens.js";
import { type ProviderQuota, quotaKey, rateLimitPause } from "./provider-quota.js";

/** Most times one call is tried again after a 429 paused its key. */
const MAX_RATE_LIMIT_RETRIES = 3;

/**
 * `model` with every call under `quota`: it waits for its key's turn first; a 429 answer pauses
 * the key for everyone sharing the quota's store, and the call is tried again after the pause.
 */
export function quotaModel(
  model: LanguageModel,
  quota: ProviderQuota,
  tenant: string | undefined,
): LanguageModel {
  const key = quotaKey(model.provider, model.model, quota.perTenant ? tenant : undefined);
  /** A 429's pause for everyone, or the error again when it is not one (or retries are spent). */
  const pausedFor = async (error: unknown, request: ModelRequest, retry: number): Promise<void> => {
    const pause = rateLimitPause(error);
    if (pause === undefined || retry >= MAX_RATE_LIMIT_RETRIES || request.signal?.aborted) throw error;
    await quota.pause(key, pause);
  };
  const waited = async (request: ModelRequest, tokens: number, first: number): Promise<ModelResponse> => {
    for (let retry = first; ; retry++) {
      await quota.acquire(key, tokens, request.signal);
      try {
        return await model.generate(request);
      } catch (error) {
        await pausedFor(error, request, retry);
      }
    }
  };
  const generate = (request: ModelRequest): Promise<ModelResponse> => {
    const tokens = conversationTokens(request.messages) + (request.maxTokens ?? 0);
    // The turn taken at once (a quota in this process's memory with room): no wait to go through.
    if (quota.tryAcquire?.(key, tokens) !== true) return waited(request, tokens, 0);
    let answer: Promise<ModelResponse>;
    try {
      answer = model.generate(request);
    } catch (error) {
      answer = Promise.reject(error);
    }
    return answer.catch(async (error: unknown) => {
      await pausedFor(error, request, 0);
      return waited(request, tokens, 1);
    });
  };
  return { provider: model.provider, model: model.model, requiresApiKey: model.requiresApiKey, generate };
}
