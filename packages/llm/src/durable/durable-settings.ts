import type { CheckpointStore, RouteContext } from "@routekit/core";
import { LlmError } from "../errors.js";
import { DEFAULT_LEASE_MS } from "./run-store.js";

/** Options of durable runs: `llmPlugin({ models, durable: { store } })`. */
export interface DurableRunOptions {
  /** Where runs keep their state: `createMemoryCheckpointStore()`, or a Redis or PostgreSQL store to survive a process. */
  store: CheckpointStore;
  /** How long an instance's claim on a run lasts unless renewed (it renews at a third); default 30000 ms. */
  leaseMs?: number;
  /** Where approval requests go (any endpoint URI: seda:, amqp:, an http: webhook); without it, only events and `context.agents` show them. */
  approvals?: string;
  /** A pending approval older than this becomes a denial ("timed out") at the next recovery pass; default none. */
  approvalTimeoutMs?: number;
  /** Where the answer of a run finished away from its first caller goes (after an approval, by recovery). */
  replyTo?: string;
  /** How often this instance looks for runs whose owner died and for approvals that timed out; default 10000 ms, 0 never. */
  recoverEveryMs?: number;
  /** This instance's name in leases; default host name, process id and a random suffix. */
  instanceId?: string;
}

/** The checked durable options of a context, as the llm step and `context.agents` read them. */
export interface DurableSettings {
  store: CheckpointStore;
  leaseMs: number;
  approvals: string | undefined;
  approvalTimeoutMs: number | undefined;
  replyTo: string | undefined;
  recoverEveryMs: number;
  instanceId: string;
}

const KEY = "routekit.llm.durable";

/** The context's durable settings; undefined until `llmPlugin({ durable })` sets them. */
export function durableSettingsOf(context: RouteContext): { settings: DurableSettings | undefined } {
  return context.service(KEY, () => ({ settings: undefined as DurableSettings | undefined }));
}

/** The settings, or a clear error naming what is missing and where. */
export function requireDurable(context: RouteContext, where: string): DurableSettings {
  const settings = durableSettingsOf(context).settings;
  if (settings === undefined) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: durable runs need a store: llmPlugin({ models, durable: { store: createMemoryCheckpointStore() } }) (or a Redis or PostgreSQL store)`,
    );
  }
  return settings;
}

/** Checks `llmPlugin`'s `durable` option; every mistake names the field and what was found. */
export function checkDurableOptions(options: DurableRunOptions): DurableSettings {
  const where = "llmPlugin: option 'durable'";
  if (options === null || typeof options !== "object") {
    throw new LlmError(
      "OPTION_INVALID",
      `${where} expects { store, ... } (found ${options === null ? "null" : typeof options})`,
    );
  }
  const store = options.store as Partial<CheckpointStore> | undefined;
  if (
    store === undefined ||
    store === null ||
    typeof store.get !== "function" ||
    typeof store.write !== "function" ||
    typeof store.list !== "function"
  ) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}.store expects a checkpoint store with get, write, list and remove (createMemoryCheckpointStore(), createRedisCheckpointStore(...), createPostgresCheckpointStore(...))`,
    );
  }
  const positive = (name: keyof DurableRunOptions, value: unknown, allowZero: boolean): void => {
    if (value === undefined) return;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
      throw new LlmError(
        "OPTION_INVALID",
        `${where}.${name} expects a ${allowZero ? "non-negative" : "positive"} number of milliseconds (found ${JSON.stringify(value)})`,
      );
    }
  };
  positive("leaseMs", options.leaseMs, false);
  positive("approvalTimeoutMs", options.approvalTimeoutMs, false);
  positive("recoverEveryMs", options.recoverEveryMs, true);
  for (const name of ["approvals", "replyTo", "instanceId"] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) {
      throw new LlmError(
        "OPTION_INVALID",
        `${where}.${name} expects a non-empty string (found ${JSON.stringify(value)})`,
      );
    }
  }
  return {
    store: options.store,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    approvals: options.approvals,
    approvalTimeoutMs: options.approvalTimeoutMs,
    replyTo: options.replyTo,
    recoverEveryMs: options.recoverEveryMs ?? 10_000,
    instanceId: options.instanceId ?? defaultInstanceId(),
  };
}

function defaultInstanceId(): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${process.pid}-${random}`;
}
