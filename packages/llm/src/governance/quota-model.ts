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
  const generate = async (request: ModelRequest): Promise<ModelResponse> => {
    const tokens = conversationTokens(request.messages) + (request.maxTokens ?? 0);
    for (let retry = 0; ; retry++) {
      await quota.acquire(key, tokens, request.signal);
      try {
        return await model.generate(request);
      } catch (error) {
        const pause = rateLimitPause(error);
        if (pause === undefined || retry >= MAX_RATE_LIMIT_RETRIES || request.signal?.aborted) throw error;
        await quota.pause(key, pause);
      }
    }
  };
  return { provider: model.provider, model: model.model, requiresApiKey: model.requiresApiKey, generate };
}
