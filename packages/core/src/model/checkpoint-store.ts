/**
 * Where durable work keeps its state between steps: versioned records, each written only over the
 * version its writer read (optimistic locking), with a lease naming the instance working on it.
 * The llm step's durable runs use it; `@routekit/redis` and `@routekit/postgres` implement it for
 * state that outlives a process, `createMemoryCheckpointStore` for tests and single processes.
 */

/** One record: a document of JSON data with its version, status and lease. */
export interface CheckpointRecord<TState = unknown> {
  readonly id: string;
  /** 1 when first written, raised by one on every write. */
  readonly version: number;
  /** What the record's owner says of it ("running", "parked", "completed", "failed", ...). */
  readonly status: string;
  /** The instance holding the lease; undefined when nobody works on the record. */
  readonly owner: string | undefined;
  /** When the lease ends (ms since the epoch); an expired lease may be taken by another instance. */
  readonly leaseUntil: number | undefined;
  /** When the record was written (ms since the epoch). */
  readonly updatedAt: number;
  /** The state, JSON data only (it is stored as JSON text). */
  readonly state: TState;
}

/** What `CheckpointStore.list` selects; every field narrows, none lists everything (up to `limit`). */
export interface CheckpointQuery {
  readonly status?: string;
  /** Only records whose lease ended before this time (ms since the epoch), or that have none. */
  readonly leaseExpiredBefore?: number;
  /** Most records returned; default 100. */
  readonly limit?: number;
}

/** A store of checkpoint records shared by every instance that works on them. */
export interface CheckpointStore {
  get(id: string): Promise<CheckpointRecord | undefined>;
  /**
   * Writes `record` when the stored version is `record.version - 1` (0: no record yet) and answers
   * true; answers false, changing nothing, when another write came first.
   */
  write(record: CheckpointRecord): Promise<boolean>;
  list(query?: CheckpointQuery): Promise<CheckpointRecord[]>;
  /** Forgets a record (a finished run nobody reads any more). */
  remove(id: string): Promise<void>;
}
