import type { Dispatcher } from "undici";
import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { type JsonPostOptions, postJsonWithRetry } from "./http-retry.js";
import { postStreamWithRetry } from "./http-stream.js";
import { missingKeyError, type ProviderDefaults, type ProviderSettings } from "./provider-settings.js";
import { collectSecrets } from "./redact-secrets.js";
import { readServerSentEvents } from "./server-sent-events.js";

/** What differs between two JSON-over-HTTP providers; the rest is `createHttpModel`. */
export interface HttpModelSpec {
  provider: string;
  defaults: ProviderDefaults;
  settings: ProviderSettings;
  url: string;
  headers: Record<string, string>;
  /** Extra headers given by the user: values of secret-looking ones are redacted from errors. */
  userHeaders: Record<string, string> | undefined;
  dispatcher: Dispatcher | undefined;
  /** The request body as JSON text. */
  toBody(request: ModelRequest): string;
  parse(json: unknown, where: string): ModelResponse;
  /** Set when the provider streams: the body of a streaming request and the reader of its events. */
  stream?: {
    toBody(request: ModelRequest): unknown;
    assembler(request: ModelRequest, where: string): StreamAssembler;
  };
}

/** Builds one streamed answer from the `data` of each server-sent event. */
export interface StreamAssembler {
  accept(data: string): void;
  finish(): ModelResponse;
}

/**
 * A language model that POSTs JSON to one URL with retries and a per-attempt deadline; a missing
 * key (for the vendor's own base URL) fails `check()` and every call, never naming the key.
 */
export function createHttpModel(spec: HttpModelSpec): LanguageModel {
  const { provider, settings, url, headers } = spec;
  const secrets = collectSecrets(settings.apiKey, spec.userHeaders);
  const where = `${provider} reply from POST ${url}`;
  const check = (): void => {
    if (settings.requiresApiKey && settings.apiKey === undefined)
      throw missingKeyError(settings, spec.defaults);
  };
  return {
    provider,
    model: settings.model,
    requiresApiKey: settings.requiresApiKey,
    check,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      check();
      const post: JsonPostOptions = {
        provider,
        url,
        headers,
        body: "",
        dispatcher: spec.dispatcher,
        maxRetries: settings.maxRetries,
        timeoutMs: request.timeoutMs ?? settings.timeoutMs,
        signal: request.signal,
        secrets,
        maxResponseBytes: settings.maxResponseBytes,
        factory: spec.defaults.factory,
      };
      const stream = spec.stream;
      if (stream === undefined) {
        post.body = spec.toBody(request);
        return spec.parse(await postJsonWithRetry(post), where);
      }
      post.body = JSON.stringify(stream.toBody(request));
      const streamWhere = `${provider} stream from POST ${url}`;
      return postStreamWithRetry(post, async (body) => {
        // A retry never reaches here twice: the assembler belongs to the one attempt that started.
        const assembler = stream.assembler(request, streamWhere);
        await readServerSentEvents(body, streamWhere, (event) => assembler.accept(event.data));
        return assembler.finish();
      });
    },
  };
}
