import { availableParallelism } from "node:os";
import { describeValue } from "../support/describe-value.js";
import { BudgetError } from "./budget-error.js";

/** The limits of a budget: how untrusted work may run, how long, in how much memory, with how much output. */
export interface BudgetOptions {
  /** Most worker threads running jobs at once (default: the number of CPUs, at least 2, at most 4). */
  maxWorkers?: number;
  /** Most jobs waiting for a worker; a job submitted beyond it is refused at once (default 64). */
  maxQueue?: number;
  /**
   * Longest time from submission to result, in milliseconds (default 1000): time spent waiting in
   * the queue counts. A job past it is failed, and a running one has its worker terminated.
   */
  timeoutMs?: number;
  /** Heap limit of each worker in MiB (V8's old generation; default 128). A job past it fails. */
  maxMemoryMb?: number;
  /** Largest result in UTF-8 bytes (a string as is, anything else as JSON text; default 1 MiB). */
  maxOutputBytes?: number;
  /** How long an idle worker stays before it is terminated, in milliseconds (default 5000). */
  idleTimeoutMs?: number;
  /**
   * Longest time a worker may take to load a task's module (not counted in `timeoutMs`), in
   * milliseconds (default 15000).
   */
  startupTimeoutMs?: number;
  /**
   * Most workers one lane (a tool, a route, a caller: see `BudgetRunOptions.lane`) holds while
   * another lane is present (has jobs waiting or running, or had one within `timeoutMs`), counting
   * its running jobs and the replacements of workers terminated for its jobs (default
   * `maxWorkers - 1`, at least 1): whatever one lane sends, the other lanes keep a worker. A lane
   * alone may use every worker.
   */
  maxWorkersPerLane?: number;
  /**
   * Most jobs of one lane waiting at once (default `maxQueue` less a quarter of it, rounded down:
   * 48 of 64, so a quarter of the queue stays for the other lanes).
   */
  maxQueuePerLane?: number;
}

/** Budget options with every default filled in. */
export type ResolvedBudgetOptions = Readonly<Required<BudgetOptions>>;

const DEFAULT_MAX_WORKERS = Math.max(2, Math.min(4, availableParallelism()));

/** The defaults of every budget option (the per-lane ones follow `maxWorkers` and `maxQueue` when those are given). */
export const BUDGET_DEFAULTS: ResolvedBudgetOptions = {
  maxWorkers: DEFAULT_MAX_WORKERS,
  maxQueue: 64,
  timeoutMs: 1000,
  maxMemoryMb: 128,
  maxOutputBytes: 1024 * 1024,
  idleTimeoutMs: 5000,
  startupTimeoutMs: 15_000,
  maxWorkersPerLane: DEFAULT_MAX_WORKERS - 1,
  maxQueuePerLane: 48,
};

/** setTimeout's largest delay; longer ones would fire at once. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

const KEYS = Object.keys(BUDGET_DEFAULTS) as (keyof BudgetOptions)[];
/** The options whose value is a delay, capped at setTimeout's largest. */
const DELAYS: readonly string[] = ["timeoutMs", "idleTimeoutMs", "startupTimeoutMs"];

/** Checks budget options; every error names the option, what was expected and what was found. */
export function resolveBudgetOptions(options: BudgetOptions = {}, where = "budget"): ResolvedBudgetOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(where, "options", `options must be an object (found ${describeValue(options)})`);
  }
  const resolved: Record<string, number> = { ...BUDGET_DEFAULTS };
  for (const [key, value] of Object.entries(options)) {
    if (!(KEYS as string[]).includes(key)) {
      throw optionError(where, key, `unknown option '${key}' (expected one of: ${KEYS.join(", ")})`);
    }
    if (value === undefined) continue;
    resolved[key] = checkLimit(where, key, value);
  }
  resolved.maxWorkersPerLane = laneLimit(where, options, resolved, "maxWorkersPerLane", "maxWorkers");
  resolved.maxQueuePerLane = laneLimit(where, options, resolved, "maxQueuePerLane", "maxQueue");
  return resolved as unknown as ResolvedBudgetOptions;
}

/** A lane's share: as given (at most the whole), or derived from the whole (all but one worker, three quarters of the queue). */
function laneLimit(
  where: string,
  options: BudgetOptions,
  resolved: Record<string, number>,
  key: "maxWorkersPerLane" | "maxQueuePerLane",
  whole: "maxWorkers" | "maxQueue",
): number {
  const total = resolved[whole] as number;
  const given = options[key];
  if (given === undefined) {
    return Math.max(1, key === "maxWorkersPerLane" ? total - 1 : total - Math.floor(total / 4));
  }
  if (given > total) {
    throw optionError(where, key, `option '${key}' must be at most ${whole} (${total}; found ${given})`);
  }
  return given;
}

/** One limit: a positive integer, a delay no longer than setTimeout allows. */
export function checkLimit(where: string, key: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw optionError(
      where,
      key,
      `option '${key}' must be a positive integer (found ${describeValue(value)})`,
    );
  }
  if (DELAYS.includes(key) && value > LONGEST_TIMER_MS) {
    throw optionError(where, key, `option '${key}' must be at most ${LONGEST_TIMER_MS} (found ${value})`);
  }
  return value;
}

function optionError(where: string, option: string, message: string): BudgetError {
  return new BudgetError("BUDGET_OPTION_INVALID", `${where}: ${message}`, { task: undefined, limit: option });
}
