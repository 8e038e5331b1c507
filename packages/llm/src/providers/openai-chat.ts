import type { Dispatcher } from "undici";
import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { postJsonWithRetry } from "./http-retry.js";
import { parseOpenAiResponse, toOpenAiBody } from "./openai-wire.js";
import {
  type HttpProviderOptions,
  missingKeyError,
  optionError,
  type ProviderDefaults,
  resolveProviderSettings,
} from "./provider-settings.js";
import { collectSecrets } from "./redact-secrets.js";

/** Options of `openAiChat`. */
export interface OpenAiChatOptions extends HttpProviderOptions {
  /** Default `https://api.openai.com/v1`, or `OPENAI_BASE_URL`. Any OpenAI-compatible server works. */
  baseURL?: string;
  /** Default `OPENAI_API_KEY`. Required only for the default base URL. */
  apiKey?: string;
  /** Extra request headers (values of secret-looking headers are redacted from errors). */
  headers?: Record<string, string>;
  /** An undici dispatcher (agent, proxy, mock pool) for every request. */
  dispatcher?: Dispatcher;
  /** Retries on 429, 5xx and transport failures; default 2. */
  maxRetries?: number;
  /** Deadline of each HTTP attempt; default 60000. */
  timeoutMs?: number;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** The body field carrying `maxTokens`; default `max_tokens` (the one compatible servers know). */
  maxTokensParameter?: "max_tokens" | "max_completion_tokens";
}

const DEFAULTS: ProviderDefaults = {
  factory: "openAiChat",
  defaultBaseURL: "https://api.openai.com/v1",
  baseUrlVariable: "OPENAI_BASE_URL",
  apiKeyVariable: "OPENAI_API_KEY",
};

/** A language model speaking OpenAI Chat Completions (`POST {baseURL}/chat/completions`). */
export function openAiChat(options: OpenAiChatOptions): LanguageModel {
  const settings = resolveProviderSettings(options, DEFAULTS);
  const maxTokensParameter = options.maxTokensParameter ?? "max_tokens";
  if (maxTokensParameter !== "max_tokens" && maxTokensParameter !== "max_completion_tokens") {
    throw optionError(
      "openAiChat",
      "maxTokensParameter",
      '"max_tokens" or "max_completion_tokens"',
      maxTokensParameter,
    );
  }
  const url = `${settings.baseURL}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
  if (options.organization !== undefined) headers["openai-organization"] = options.organization;
  const secrets = collectSecrets(settings.apiKey, options.headers);
  const bodyOptions = { model: settings.model, maxTokensParameter };

  const check = (): void => {
    if (settings.requiresApiKey && settings.apiKey === undefined) throw missingKeyError(settings, DEFAULTS);
  };

  return {
    provider: "openai",
    model: settings.model,
    requiresApiKey: settings.requiresApiKey,
    check,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      check();
      const json = await postJsonWithRetry({
        provider: "openai",
        url,
        headers,
        body: JSON.stringify(toOpenAiBody(request, bodyOptions)),
        dispatcher: options.dispatcher,
        maxRetries: settings.maxRetries,
        timeoutMs: request.timeoutMs ?? settings.timeoutMs,
        signal: request.signal,
        secrets,
      });
      return parseOpenAiResponse(json, settings.model, `openai reply from POST ${url}`);
    },
  };
}
