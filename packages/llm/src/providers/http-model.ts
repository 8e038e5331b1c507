import type { Dispatcher } from "undici";
import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { postJsonWithRetry } from "./http-retry.js";
import { missingKeyError, type ProviderDefaults, type ProviderSettings } from "./provider-settings.js";
import { collectSecrets } from "./redact-secrets.js";

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
  toBody(request: ModelRequest): unknown;
  parse(json: unknown, where: string): ModelResponse;
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
      const json = await postJsonWithRetry({
        provider,
        url,
        headers,
        body: JSON.stringify(spec.toBody(request)),
        dispatcher: spec.dispatcher,
        maxRetries: settings.maxRetries,
        timeoutMs: request.timeoutMs ?? settings.timeoutMs,
        signal: request.signal,
        secrets,
      });
      return spec.parse(json, where);
    },
  };
}
