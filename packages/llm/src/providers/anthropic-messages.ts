import type { Dispatcher } from "undici";
import type { LanguageModel } from "../model-types.js";
import { anthropicStreamAssembler } from "./anthropic-stream.js";
import { parseAnthropicResponse, toAnthropicBody } from "./anthropic-wire.js";
import { createHttpModel } from "./http-model.js";
import {
  type HttpProviderOptions,
  optionError,
  type ProviderDefaults,
  resolveProviderSettings,
} from "./provider-settings.js";

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
  /** Longest wait, in ms, for the reply's head and for each chunk of its body (a streamed answer may take longer in all); default 60000. */
  timeoutMs?: number;
  /** Sent as `anthropic-version`; default "2023-06-01". */
  anthropicVersion?: string;
  /**
   * Stream every answer (server-sent events): an llm step built with `.stream()` then hands on
   * text as it arrives. Default false.
   */
  stream?: boolean;
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
  if (options.stream !== undefined && typeof options.stream !== "boolean") {
    throw optionError("anthropicMessages", "stream", "a boolean", options.stream);
  }
  const url = `${settings.baseURL}/v1/messages`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "anthropic-version": options.anthropicVersion ?? "2023-06-01",
    ...options.headers,
  };
  if (settings.apiKey !== undefined) headers["x-api-key"] = settings.apiKey;
  return createHttpModel({
    provider: "anthropic",
    defaults: DEFAULTS,
    settings,
    url,
    headers,
    userHeaders: options.headers,
    dispatcher: options.dispatcher,
    toBody: (request) => JSON.stringify(toAnthropicBody(request, settings.model, maxTokens)),
    parse: (json, where) => parseAnthropicResponse(json, settings.model, where),
    ...(options.stream === true && {
      stream: {
        toBody: (request) => ({ ...toAnthropicBody(request, settings.model, maxTokens), stream: true }),
        assembler: (request, where) => anthropicStreamAssembler(request, settings.model, where),
      },
    }),
  });
}
