import { setTimeout as sleep } from "node:timers/promises";
import { LlmError, ModelRequestError } from "../errors.js";
import { memoryQuotaStore, type QuotaBuckets, type QuotaStore } from "./quota-store.js";

/** Options of `providerQuota`. */
export interface ProviderQuotaOptions {
  requestsPerMinute?: number;
  /** Input (estimated: a quarter of the request's JSON length) plus `maxTokens` per minute. */
  tokensPerMinute?: number;
  /** How many seconds of the rate may be spent at once; default 1. */
  burstSeconds?: number;
  /** Keep a bucket per tenant (the `tenantHeader` of `llmPlugin`) besides provider and model; default false. */
  perTenant?: boolean;
  /** "wait" (default): a call waits for its turn, within `maxWaitMs` and the run's deadline; "fail": fails at once. */
  whenLimited?: "wait" | "fail";
  /** Longest wait of one call for its turn, in ms; default 60000. */
  maxWaitMs?: number;
  /** Most calls of this process waiting at once; more fail at once. Default 1000. */
  maxQueued?: number;
  /** Where the buckets live; default this process's memory. A Redis store shares them between instances. */
  store?: QuotaStore;
}

/**
 * A rate limit per provider/model (and tenant): every model call takes a request and its tokens
 * from the key's buckets first, and a 429 answer with `retry-after` pauses the key for everyone
 * sharing the store, then the call is tried again after the pause.
 */
export interface ProviderQuota {
  readonly perTenant: boolean;
  /** Waits for the key's turn (or fails with `QUOTA_EXCEEDED`). */
  acquire(key: string, tokens: number, signal: AbortSignal | undefined): Promise<void>;
  /**
   * Takes the key's turn at once when its store answers at once (this process's memory) and the
   * buckets allow the call now: true. False when the caller must `acquire` (nothing was taken).
   */
  tryAcquire?(key: string, tokens: number): boolean;
  /** Pauses the key for everyone sharing the store. */
  pause(key: string, ms: number): Promise<void>;
}

const QUOTA_OPTIONS = [
  "requestsPerMinute",
  "tokensPerMinute",
  "burstSeconds",
  "maxWaitMs",
  "maxQueued",
] as const;

/** Makes a provider quota; throws `OPTION_INVALID` naming a malformed option. */
export function providerQuota(options: ProviderQuotaOptions): ProviderQuota {
  checkQuotaOptions(options);
  const store = options.store ?? memoryQuotaStore();
  const burst = options.burstSeconds ?? 1;
  const buckets: QuotaBuckets = {
    requestsPerMs: (options.requestsPerMinute ?? 0) / 60_000,
    requestCapacity: Math.max(1, ((options.requestsPerMinute ?? 0) / 60) * burst),
    tokensPerMs: (options.tokensPerMinute ?? 0) / 60_000,
    tokenCapacity: Math.max(1, ((options.tokensPerMinute ?? 0) / 60) * burst),
    idleMs: Math.ceil(burst * 1000) + 60_000,
  };
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const maxQueued = options.maxQueued ?? 1000;
  const failFast = options.whenLimited === "fail";
  let queued = 0;
  const takeNow = store.takeNow?.bind(store);
  return {
    perTenant: options.perTenant === true,
    ...(takeNow === undefined
      ? {}
      : {
          tryAcquire: (key: string, tokens: number) =>
            takeNow(key, Math.min(tokens, buckets.tokenCapacity), buckets) === 0,
        }),
    async acquire(key, tokens, signal) {
      // A call asking more tokens than a bucket holds takes the whole bucket.
      const wanted = Math.min(tokens, buckets.tokenCapacity);
      let wait = await store.take(key, wanted, buckets);
      if (wait === 0) return;
      if (failFast) throw exceeded(key, `the quota allows no call now (next in ${wait} ms)`);
      if (queued >= maxQueued) throw exceeded(key, `${maxQueued} calls already wait (maxQueued)`);
      const started = Date.now();
      queued += 1;
      try {
        while (wait > 0) {
          const waited = Date.now() - started;
          if (waited + wait > maxWaitMs) {
            throw exceeded(key, `its turn would come after more than maxWaitMs (${maxWaitMs} ms)`);
          }
          await sleep(wait, undefined, signal === undefined ? undefined : { signal }).catch(
            (error: unknown) => {
              throw signal?.aborted ? signal.reason : error;
            },
          );
          wait = await store.take(key, wanted, buckets);
        }
      } finally {
        queued -= 1;
      }
    },
    pause: (key, ms) => store.pause(key, ms),
  };
}

/** The quota key of a model (and tenant). */
export function quotaKey(provider: string, model: string, tenant: string | undefined): string {
  return tenant === undefined ? `${provider}/${model}` : `${provider}/${model}/${tenant}`;
}

/** The wait a 429 answer asked for, when the failure is one. */
export function rateLimitPause(error: unknown): number | undefined {
  if (!(error instanceof ModelRequestError) || error.status !== 429) return undefined;
  return error.retryAfterMs ?? 1000;
}

function exceeded(key: string, reason: string): LlmError {
  return new LlmError("QUOTA_EXCEEDED", `provider quota '${key}': ${reason}`);
}

function checkQuotaOptions(options: ProviderQuotaOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new LlmError(
      "OPTION_INVALID",
      `providerQuota: expected options { requestsPerMinute?, tokensPerMinute?, ... }, got ${options === null ? "null" : typeof options}`,
    );
  }
  for (const name of QUOTA_OPTIONS) {
    const value = options[name];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new LlmError(
        "OPTION_INVALID",
        `providerQuota: option '${name}' must be a number > 0, got ${JSON.stringify(value) ?? typeof value}`,
      );
    }
  }
  if (options.requestsPerMinute === undefined && options.tokensPerMinute === undefined) {
    throw new LlmError(
      "OPTION_INVALID",
      "providerQuota: set requestsPerMinute, tokensPerMinute or both (found neither)",
    );
  }
  const { whenLimited, store } = options;
  if (whenLimited !== undefined && whenLimited !== "wait" && whenLimited !== "fail") {
    throw new LlmError(
      "OPTION_INVALID",
      `providerQuota: option 'whenLimited' must be "wait" or "fail", got ${JSON.stringify(whenLimited)}`,
    );
  }
  if (store !== undefined && (typeof store?.take !== "function" || typeof store.pause !== "function")) {
    throw new LlmError(
      "OPTION_INVALID",
      "providerQuota: option 'store' must be a QuotaStore ({ take, pause }), e.g. redisStore.quotaStore('llm')",
    );
  }
}
