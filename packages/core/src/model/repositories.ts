import type { Exchange } from "./exchange.js";

/**
 * Where `aggregate` keeps open groups between messages, by correlation key. Every method may
 * answer synchronously or with a promise (a persistent store); the aggregator serialises the
 * work per key, so a repository needs no locking of its own.
 */
export interface AggregationRepository {
  get(key: string): Exchange | undefined | Promise<Exchange | undefined>;
  put(key: string, exchange: Exchange): void | Promise<void>;
  remove(key: string): void | Promise<void>;
  /** The keys of the open groups. */
  keys(): Iterable<string> | Promise<Iterable<string>>;
}

/** An exchange as plain data, the way a shared repository stores a group. */
export interface StoredExchange {
  readonly body: unknown;
  readonly headers: Record<string, unknown>;
  readonly properties: Record<string, unknown>;
}

/** A group read from a shared repository: what it holds and the version to write against. */
export interface SharedGroup {
  /** The aggregate so far; undefined when the key only remembers the parts of a completed group. */
  readonly exchange: StoredExchange | undefined;
  /** Raised by every write; a write names the version it read (optimistic locking). */
  readonly version: number;
  /** Part ids in the group (or in the group that completed last under this key). */
  readonly partIds: readonly string[];
  /** When the open group times out (ms since the epoch); undefined without completionTimeout. */
  readonly timeoutAt: number | undefined;
}

/** What the aggregator writes to a shared repository after merging a part. */
export interface SharedGroupWrite {
  /** The version read; undefined when the key held nothing. */
  readonly version: number | undefined;
  readonly exchange: StoredExchange;
  /** Every part id of the group, this part's included (empty without the `partId` option). */
  readonly partIds: readonly string[];
  readonly timeoutAt: number | undefined;
}

/** A completed group not yet confirmed as processed. */
export interface CompletedGroup {
  readonly id: string;
  readonly key: string;
  readonly exchange: StoredExchange;
  /** How many times recovery has handed this group out, this time included. */
  readonly attempts: number;
}

/**
 * A repository that several processes share (Redis, PostgreSQL). Every write names the version it
 * read, so two instances adding to one group never lose a part: the loser reads again and merges
 * again. Completing moves a group into a completed set in the same atomic step, so exactly one
 * instance completes it; the group stays there until `confirm`, and `recover` hands groups whose
 * processing never confirmed (a crash, a failure) to one instance again.
 */
export interface SharedAggregationRepository {
  /** Marks the repository as shared (the aggregator then works with versions and recovery). */
  readonly shared: true;
  read(key: string): Promise<SharedGroup | undefined>;
  /** Stores the open group when the key is still at `write.version`; false when another write came first. */
  write(key: string, write: SharedGroupWrite): Promise<boolean>;
  /**
   * Closes the group and adds it to the completed set under `id`, when the key is still at
   * `write.version`; false when another instance changed or completed the group first.
   */
  complete(key: string, id: string, write: SharedGroupWrite): Promise<boolean>;
  /** The completed group was processed: forget it. */
  confirm(id: string): Promise<void>;
  /**
   * Claims up to `limit` completed groups that were completed or last recovered at least
   * `olderThanMs` ago, raising their attempt count; no other caller gets them for `olderThanMs`.
   */
  recover(olderThanMs: number, limit: number): Promise<CompletedGroup[]>;
  /** Keys of up to `limit` open groups whose timeout is at or before `now`. */
  expired(now: number, limit: number): Promise<string[]>;
  /** Keys of the open groups. */
  keys(): Promise<string[]>;
}

/**
 * Where an idempotent consumer remembers the keys it has seen. `add` claims a key atomically:
 * it returns false when the key is already there. Methods may return promises (a database).
 * A repository shared between processes (`@routekit/redis`, `@routekit/postgres`) may also
 * throw from `add` while another instance holds the key unconfirmed: the exchange then fails
 * without running the rest of the block, so a broker delivers its message again later instead of
 * it being dropped while the first delivery may still fail. A rejected `confirm` fails the
 * exchange too. Every method also gets the exchange being processed, so a repository can tie
 * the claim to it (a transacted repository keeps its open transaction there between `add` and
 * `confirm` or `remove`).
 */
export interface IdempotentRepository {
  /** Adds `key`; false when it was already present (a duplicate). */
  add(key: string, exchange?: Exchange): boolean | Promise<boolean>;
  contains(key: string): boolean | Promise<boolean>;
  /** Forgets `key` (processing failed: a retry may go through). */
  remove(key: string, exchange?: Exchange): void | Promise<void> | boolean | Promise<boolean>;
  /** Called once the exchange completed without an error (e.g. to commit a pending claim). */
  confirm?(key: string, exchange?: Exchange): void | Promise<void>;
}
