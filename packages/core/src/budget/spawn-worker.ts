import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type * as WorkerThreads from "node:worker_threads";
import { lazyModule } from "../support/lazy-module.js";
import type { TaskErrorInfo } from "./budget-error.js";
import type { PoolWorker } from "./pool-job.js";

export type { PoolWorker } from "./pool-job.js";

import { BUDGET_WORKER_SOURCE } from "./worker-source.js";

/** What a worker posts (see worker-source.ts for the protocol). */
export type WorkerReply =
  | { readonly ready: true }
  | { readonly id: number; readonly loading: true }
  | { readonly id: number; readonly loaded: true }
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly outputBytes: number }
  | { readonly id: number; readonly error: TaskErrorInfo };

/** How to start one worker. */
export interface SpawnOptions {
  readonly maxMemoryMb: number;
  readonly replacement: boolean;
  /** Modules to import before the worker says it is ready. */
  readonly preload: readonly string[];
  /** Whether task modules may be `.ts` files (then tsx's loader is handed to the worker). */
  readonly typescript: boolean;
}

/** node:worker_threads, loaded when a budget starts its first worker. */
const workerThreads = lazyModule<typeof WorkerThreads>("node:worker_threads", import.meta.url);

/** Starts a worker thread running the budget bootstrap, with the heap limit; unref'd from the start. */
export function spawnWorker(options: SpawnOptions): PoolWorker {
  const worker = new (workerThreads().Worker)(BUDGET_WORKER_SOURCE, {
    eval: true,
    workerData: {
      typescriptLoader: options.typescript ? typescriptLoaderUrl() : undefined,
      preload: options.preload,
    },
    resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb },
  });
  worker.unref();
  return {
    worker,
    replacement: options.replacement,
    modules: new Set(options.preload),
    ready: false,
    job: undefined,
    idleTimer: undefined,
  };
}

let typescriptLoader: string | null | undefined;

/**
 * tsx's ESM loader API as a file URL, for workers that import `.ts` task modules (code running from
 * TypeScript sources, under vitest or tsx); undefined when tsx cannot be found.
 */
function typescriptLoaderUrl(): string | undefined {
  if (typescriptLoader === undefined) {
    try {
      const api = createRequire(import.meta.url).resolve("tsx/esm/api");
      typescriptLoader = pathToFileURL(api.replace(/\.cjs$/, ".mjs")).href;
    } catch {
      typescriptLoader = null;
    }
  }
  return typescriptLoader ?? undefined;
}
