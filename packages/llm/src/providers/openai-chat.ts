import type { Dispatcher } from "undici";
import type { LanguageModel } from "../model-types.js";
import { createHttpModel } from "./http-model.js";
import { openAiStreamAssembler } from "./openai-stream.js";
import { parseOpenAiResponse, toOpenAiBody, toOpenAiBodyText } from "./openai-wire.js";
import {
  type HttpProviderOptions,
  optionError,
  type ProviderDefaults,
  resolveProviderSettings,
} from "./provider-settings.js";

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
  /** Longest wait, in ms, for the reply's head and for each chunk of its body (a streamed answer may take longer in all); default 60000. */
  timeoutMs?: number;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** The body field carrying `maxTokens`; default `max_tokens` (the one compatible servers know). */
  maxTokensParameter?: "max_tokens" | "max_completion_tokens";
  /**
   * Stream every answer (server-sent events, usage through `stream_options.include_usage`): an llm
   * step built with `.stream()` then hands on text as it arrives. Default false.
   */
  stream?: boolean;
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
  if (options.stream !== undefined && typeof options.stream !== "boolean") {
    throw optionError("openAiChat", "stream", "a boolean", options.stream);
  }
  const url = `${settings.baseURL}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
  if (options.organization !== undefined) headers["openai-organization"] = options.organization;
  const bodyOptions = { model: settings.model, maxTokensParameter };
  return createHttpModel({
    provider: "openai",
    defaults: DEFAULTS,
    settings,
    url,
    headers,
    userHeaders: options.headers,
    dispatcher: options.dispatcher,
    toBody: (request) => toOpenAiBodyText(request, bodyOptions),
    parse: (json, where) => parseOpenAiResponse(json, settings.model, where),
    ...(options.stream === true && {
      stream: {
        toBody: (request) => ({
          ...toOpenAiBody(request, bodyOptions),
          stream: true,
          stream_options: { include_usage: true },
        }),
        assembler: (request, where) => openAiStreamAssembler(request, settings.model, where),
      },
    }),
  });
}
