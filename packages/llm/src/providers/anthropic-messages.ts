import type { Dispatcher } from "undici";
import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { parseAnthropicResponse, toAnthropicBody } from "./anthropic-wire.js";
import { postJsonWithRetry } from "./http-retry.js";
import {
  type HttpProviderOptions,
  missingKeyError,
  optionError,
  type ProviderDefaults,
  resolveProviderSettings,
} from "./provider-settings.js";
import { collectSecrets } from "./redact-secrets.js";

/** Options of `anthropicMessages`. */
export interface AnthropicMessagesOptions extends HttpProviderOptions {
  /** Default `https://api.anthropic.com`, or `ANTHROPIC_BASE_URL`. */
  baseURL?: string;
  /** Default `ANTHROPIC_API_KEY`. Required only for the default base URL. */
  apiKey?: string;
  /** `max_tokens` when the request sets none (the API requires it); default 1024. */
  maxTokens?: number;
  /** Extra request headers (values of secret-looking headers are redacted from errors). */
  headers?: Record<string, string>;
  /** An undici dispatcher (agent, proxy, mock pool) for every request. */
  dispatcher?: Dispatcher;
  /** Retries on 429, 5xx (529 overloaded included) and transport failures; default 2. */
  maxRetries?: number;
  /** Deadline of each HTTP attempt; default 60000. */
  timeoutMs?: number;
  /** Sent as `anthropic-version`; default "2023-06-01". */
  anthropicVersion?: string;
}

const DEFAULTS: ProviderDefaults = {
  factory: "anthropicMessages",
  defaultBaseURL: "https://api.anthropic.com",
  baseUrlVariable: "ANTHROPIC_BASE_URL",
  apiKeyVariable: "ANTHROPIC_API_KEY",
};

/** A language model speaking the Anthropic Messages API (`POST {baseURL}/v1/messages`). */
export function anthropicMessages(options: AnthropicMessagesOptions): LanguageModel {
  const settings = resolveProviderSettings(options, DEFAULTS);
  const maxTokens = options.maxTokens ?? 1024;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw optionError("anthropicMessages", "maxTokens", "an integer >= 1", maxTokens);
  }
  const url = `${settings.baseURL}/v1/messages`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "anthropic-version": options.anthropicVersion ?? "2023-06-01",
    ...options.headers,
  };
  if (settings.apiKey !== undefined) headers["x-api-key"] = settings.apiKey;
  const secrets = collectSecrets(settings.apiKey, options.headers);

  const check = (): void => {
    if (settings.requiresApiKey && settings.apiKey === undefined) throw missingKeyError(settings, DEFAULTS);
  };

  return {
    provider: "anthropic",
    model: settings.model,
    requiresApiKey: settings.requiresApiKey,
    check,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      check();
      const json = await postJsonWithRetry({
        provider: "anthropic",
        url,
        headers,
        body: JSON.stringify(toAnthropicBody(request, settings.model, maxTokens)),
        dispatcher: options.dispatcher,
        maxRetries: settings.maxRetries,
        timeoutMs: request.timeoutMs ?? settings.timeoutMs,
        signal: request.signal,
        secrets,
      });
      return parseAnthropicResponse(json, settings.model, `anthropic reply from POST ${url}`);
    },
  };
}
