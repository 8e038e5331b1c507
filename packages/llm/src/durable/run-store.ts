import type { CheckpointRecord, CheckpointStore } from "@routekit/core";
import { LlmError } from "../errors.js";
import type { DurableRunState, RunStatus } from "./run-state.js";

/** A durable run as its store holds it. */
export type RunRecord = CheckpointRecord<DurableRunState> & { readonly status: RunStatus };

/** How long a lease lasts unless renewed; the run renews it at a third of that while it works. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * One run as this instance works on it: every write goes over the version read last (so a second
 * instance that took the run makes this one's next write fail with `RUN_CONFLICT`), one write at a
 * time, and a timer renews the lease while a model or tool call is slow.
 */
export class RunHandle {
  readonly store: CheckpointStore;
  readonly owner: string;
  readonly leaseMs: number;
  #record: RunRecord;
  #writing: Promise<unknown> = Promise.resolve();
  #renewal: ReturnType<typeof setInterval> | undefined;

  constructor(store: CheckpointStore, record: RunRecord, owner: string, leaseMs: number) {
    this.store = store;
    this.#record = record;
    this.owner = owner;
    this.leaseMs = leaseMs;
  }

  get state(): DurableRunState {
    return this.#record.state;
  }

  get version(): number {
    return this.#record.version;
  }

  /** Renews the lease every third of its length until `release`; the timer keeps no process alive. */
  keepLease(): void {
    this.#renewal ??= setInterval(() => {
      this.#renew().catch(() => {
        // A lost lease shows at the run's next checkpoint, which fails with RUN_CONFLICT.
      });
    }, this.leaseMs / 3);
    this.#renewal.unref();
  }

  /** Writes the state as it is now, with `status`; the lease is renewed (or given up when the run ends or parks). */
  save(status: RunStatus): Promise<void> {
    const write = this.#writing.then(() => this.#write(status));
    this.#writing = write.catch(() => undefined);
    return write;
  }

  /**
   * Renews the lease of a running record, in turn with the run's own writes. The status is read
   * when the write's turn comes: a renewal queued behind the write that parked or completed the
   * run writes nothing (it would have made the run "running" again, held by nobody alive).
   */
  #renew(): Promise<void> {
    const write = this.#writing.then(() =>
      this.#renewal !== undefined && this.#record.status === "running" ? this.#write("running") : undefined,
    );
    this.#writing = write.catch(() => undefined);
    return write;
  }

  /** Stops renewing the lease. */
  release(): void {
    if (this.#renewal !== undefined) clearInterval(this.#renewal);
    this.#renewal = undefined;
  }

  async #write(status: RunStatus): Promise<void> {
    const holds = status === "running";
    const now = Date.now();
    const next: RunRecord = {
      id: this.#record.id,
      version: this.#record.version + 1,
      status,
      owner: holds ? this.owner : undefined,
      leaseUntil: holds ? now + this.leaseMs : undefined,
      updatedAt: now,
      state: this.#record.state,
    };
    if (!(await this.store.write(next))) {
      throw new LlmError(
        "RUN_CONFLICT",
        `durable run '${this.#record.id}': another instance wrote version ${next.version} first; this instance (${this.owner}) stops working on it`,
      );
    }
    this.#record = next;
  }
}

/**
 * Takes the lease of run `runId` for `owner`: creates the run when the store has none (`create`),
 * takes it when nobody holds it or the holder's lease expired, and answers undefined when another
 * instance holds it (or took it at the same moment) or the run has ended.
 */
export async function acquireRun(
  store: CheckpointStore,
  runId: string,
  owner: string,
  leaseMs: number,
  create: () => DurableRunState,
): Promise<RunHandle | "busy" | "ended"> {
  const stored = (await store.get(runId)) as RunRecord | undefined;
  const now = Date.now();
  if (stored !== undefined) {
    if (stored.status === "completed" || stored.status === "failed") return "ended";
    const held = stored.owner !== undefined && stored.owner !== owner && (stored.leaseUntil ?? 0) > now;
    if (held) return "busy";
  }
  const record: RunRecord = {
    id: runId,
    version: (stored?.version ?? 0) + 1,
    status: "running",
    owner,
    leaseUntil: now + leaseMs,
    updatedAt: now,
    state: stored?.state ?? create(),
  };
  checkState(record.state, runId);
  if (!(await store.write(record))) return "busy";
  return new RunHandle(store, record, owner, leaseMs);
}

/** Refuses a stored state that is not a run's (another program's record under this id). */
function checkState(state: DurableRunState, runId: string): void {
  const valid =
    typeof state === "object" &&
    state !== null &&
    Array.isArray(state.messages) &&
    typeof state.iteration === "number" &&
    typeof state.results === "object" &&
    typeof state.approvals === "object";
  if (!valid) {
    throw new LlmError(
      "RUN_STATE_INVALID",
      `durable run '${runId}': the store holds a record that is not a durable run's state (expected messages, iteration, results, approvals)`,
    );
  }
}
