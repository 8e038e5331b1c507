import { LlmError } from "../errors.js";
import type { TokenUsage } from "../model-types.js";

/** What one model costs, in US dollars per million tokens (user-supplied: no price is built in). */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Price of input tokens the provider served from its cache; default `inputPerMillion`. */
  cachedInputPerMillion?: number;
  /** Price of input tokens the provider wrote to its cache (Anthropic); default `inputPerMillion`. */
  cacheWriteInputPerMillion?: number;
}

/** Prices by `provider/model`, e.g. `{ "openai/gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 } }`. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const PRICE_FIELDS = [
  "inputPerMillion",
  "outputPerMillion",
  "cachedInputPerMillion",
  "cacheWriteInputPerMillion",
] as const;

/** The cost of `usage` at `price`, in US dollars. */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteInputTokens ?? 0, usage.inputTokens - cached);
  return (
    ((usage.inputTokens - cached - written) * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      written * (price.cacheWriteInputPerMillion ?? price.inputPerMillion) +
      usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}

/** The price of a model, looked up by `provider/model`. */
export function priceOf(
  prices: PriceTable | undefined,
  provider: string,
  model: string,
): ModelPrice | undefined {
  if (prices === undefined) return undefined;
  const key = priceKey(provider, model);
  return Object.hasOwn(prices, key) ? prices[key] : undefined;
}

// Keys by provider and model, made once: a run looks its price up at every call.
const keys = new Map<string, Map<string, string>>();

/** `provider/model`, the same string each time (at most 1,000 per provider are remembered). */
function priceKey(provider: string, model: string): string {
  let byModel = keys.get(provider);
  if (byModel === undefined) {
    byModel = new Map();
    keys.set(provider, byModel);
  }
  let key = byModel.get(model);
  if (key === undefined) {
    key = `${provider}/${model}`;
    if (byModel.size < 1000) byModel.set(model, key);
  }
  return key;
}

// Tables already checked: every run of a step hands the same table on, checked when the step was made.
const checked = new WeakSet<object>();

/** Throws `OPTION_INVALID` naming the first malformed entry of a price table. */
export function checkPrices(prices: unknown, where: string): PriceTable {
  if (typeof prices === "object" && prices !== null && checked.has(prices)) return prices as PriceTable;
  if (typeof prices !== "object" || prices === null || Array.isArray(prices)) {
    throw invalid(
      where,
      "prices",
      "prices by 'provider/model', e.g. { 'openai/gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } }",
      describe(prices),
    );
  }
  for (const [key, price] of Object.entries(prices)) {
    if (!/^[^/\s]+\/\S+$/.test(key)) {
      throw invalid(
        where,
        `prices['${key}']`,
        "keyed by 'provider/model' (e.g. 'openai/gpt-4o-mini')",
        JSON.stringify(key),
      );
    }
    if (typeof price !== "object" || price === null) {
      throw invalid(
        where,
        `prices['${key}']`,
        "{ inputPerMillion, outputPerMillion, cachedInputPerMillion?, cacheWriteInputPerMillion? }",
        describe(price),
      );
    }
    for (const field of PRICE_FIELDS) {
      const value = (price as Record<string, unknown>)[field];
      if (value === undefined && field !== "inputPerMillion" && field !== "outputPerMillion") continue;
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw invalid(where, `prices['${key}'].${field}`, "a number of US dollars >= 0", describe(value));
      }
    }
  }
  checked.add(prices);
  return prices as PriceTable;
}

function invalid(where: string, option: string, expected: string, found: string): LlmError {
  return new LlmError("OPTION_INVALID", `${where}: option '${option}' must be ${expected}, got ${found}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "an object of another shape" : typeof value;
}
