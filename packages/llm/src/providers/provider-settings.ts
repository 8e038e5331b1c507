import { LlmError } from "../errors.js";

/** The options every HTTP provider factory shares. */
export interface HttpProviderOptions {
  model: string;
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  maxRetries?: number;
  timeoutMs?: number;
  /**
   * Largest reply read, in bytes, counted as they arrive: a plain reply's body, or everything a
   * streamed reply sends over the whole stream. A larger reply fails with `MODEL_RESPONSE_INVALID`
   * and its connection is closed. Default 8 MiB.
   */
  maxResponseBytes?: number;
}

/** Default `maxResponseBytes` of every HTTP provider: 8 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Where a provider finds its defaults. */
export interface ProviderDefaults {
  factory: string;
  defaultBaseURL: string;
  baseUrlVariable: string;
  apiKeyVariable: string;
}

/** Validated settings of an HTTP provider. */
export interface ProviderSettings {
  model: string;
  baseURL: string;
  /** True when the base URL is the vendor's own: a key is then required. */
  requiresApiKey: boolean;
  apiKey: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Validates the shared options and fills them from the environment and the defaults. */
export function resolveProviderSettings(
  options: HttpProviderOptions,
  defaults: ProviderDefaults,
): ProviderSettings {
  const { factory } = defaults;
  if (typeof options !== "object" || options === null) {
    throw optionError(factory, "options", "an object with at least { model }", options);
  }
  if (typeof options.model !== "string" || options.model.trim() === "") {
    throw optionError(factory, "model", "a non-empty string", options.model);
  }
  const baseURL = stripSlash(
    options.baseURL ?? nonEmpty(process.env[defaults.baseUrlVariable]) ?? defaults.defaultBaseURL,
  );
  if (!/^https?:\/\/[^/]/i.test(baseURL) || !URL.canParse(baseURL)) {
    throw optionError(factory, "baseURL", "an absolute http(s) URL", baseURL);
  }
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw optionError(factory, "maxRetries", "an integer >= 0", maxRetries);
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw optionError(factory, "timeoutMs", "a number of milliseconds > 0", timeoutMs);
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1) {
    throw optionError(factory, "maxResponseBytes", "a whole number of bytes >= 1", maxResponseBytes);
  }
  if (options.apiKey !== undefined && typeof options.apiKey !== "string") {
    throw new LlmError(
      "OPTION_INVALID",
      `${factory}: option 'apiKey' must be a string, got a ${typeof options.apiKey}`,
    );
  }
  return {
    model: options.model,
    baseURL,
    requiresApiKey: baseURL === stripSlash(defaults.defaultBaseURL),
    apiKey: nonEmpty(options.apiKey) ?? nonEmpty(process.env[defaults.apiKeyVariable]),
    maxRetries,
    timeoutMs,
    maxResponseBytes,
  };
}

/** The `API_KEY_MISSING` error, naming the option and the environment variable to set. */
export function missingKeyError(settings: ProviderSettings, defaults: ProviderDefaults): LlmError {
  return new LlmError(
    "API_KEY_MISSING",
    `${defaults.factory}({ model: "${settings.model}" }): no API key for ${settings.baseURL}: ` +
      `pass the apiKey option or set ${defaults.apiKeyVariable}`,
  );
}

/** An `OPTION_INVALID` error naming the factory, the option, what was expected and what was found. */
export function optionError(factory: string, option: string, expected: string, found: unknown): LlmError {
  return new LlmError(
    "OPTION_INVALID",
    `${factory}: option '${option}' must be ${expected}, got ${describe(found)}`,
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function stripSlash(url: string): string {
  return url.endsWith("/") ? url.replace(/\/+$/, "") : url;
}
