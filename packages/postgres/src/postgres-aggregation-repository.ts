import {
  type CompletedGroup,
  decodeStoredExchange,
  encodeStoredExchange,
  type SharedAggregationRepository,
  type SharedGroup,
  type SharedGroupWrite,
  type StoredExchange,
} from "@routekit/core/internal";
import type { PgPool } from "./pg-pool.js";
import { checkInteger, checkName } from "./postgres-options.js";
import { inTransaction, runQuery } from "./postgres-query.js";
import { describeError, PostgresStoreError, preview } from "./postgres-store-error.js";
import type { TableNames } from "./schema.js";

/** Options of an aggregation repository on PostgreSQL. */
export interface PostgresAggregationRepositoryOptions {
  /**
   * How long the part ids of a completed group are kept, in ms, so that a part delivered again
   * after its group completed is recognised (the aggregate's `partId` option). Default 3600000.
   */
  partIdRetentionMs?: number;
}

/** An aggregation repository whose groups every instance shares. */
export interface PostgresAggregationRepository extends SharedAggregationRepository {
  /** Deletes every group and completed group of this repository. */
  clear(): Promise<void>;
}

interface GroupRow {
  version: number;
  data: string | null;
  part_ids: unknown;
  timeout_at: string | null;
}

/** What every query of one repository needs: the pool, its tables, its name and where it is. */
interface Scope {
  readonly pool: PgPool;
  readonly at: string;
  readonly name: string;
  readonly groups: string;
  readonly completed: string;
}

function corrupt(scope: Scope, table: string, key: string, problem: string): PostgresStoreError {
  return new PostgresStoreError(
    "VALUE_CORRUPT",
    `${scope.at}: the row of key '${key}' in ${table} ${problem}`,
  );
}

function decode(scope: Scope, table: string, key: string, data: string): StoredExchange {
  try {
    return decodeStoredExchange(data);
  } catch (error) {
    throw corrupt(scope, table, key, `does not hold a group written by routekit: ${describeError(error)}`);
  }
}

function encode(scope: Scope, key: string, write: SharedGroupWrite): string {
  try {
    return encodeStoredExchange(write.exchange);
  } catch (error) {
    throw new PostgresStoreError(
      "VALUE_CORRUPT",
      `${scope.at}: the group '${key}' cannot be stored: ${describeError(error)}`,
    );
  }
}

/**
 * Open groups are rows of `<prefix>aggregation_group` with a version that every write raises
 * (`UPDATE … WHERE version = $read`); completing closes the row and inserts the group into
 * `<prefix>aggregation_completed` in one transaction, where it stays until confirmed.
 */
export function createPostgresAggregationRepository(
  pool: PgPool,
  where: string,
  tables: TableNames,
  name: string,
  options: PostgresAggregationRepositoryOptions = {},
): PostgresAggregationRepository {
  const site = `aggregationRepository('${checkName("aggregationRepository()", name)}')`;
  const retention = checkInteger(site, "partIdRetentionMs", options.partIdRetentionMs, 3_600_000, 1);
  const at = `${where}, aggregation repository '${name}'`;
  const scope: Scope = { pool, at, name, groups: tables.groups, completed: tables.completed };
  const { groups, completed } = tables;
  return {
    shared: true,
    read: (key) => readGroup(scope, key),
    write: (key, write) => writeGroup(scope, key, write),
    complete: (key, id, write) => completeGroup(scope, key, id, write),
    async confirm(id) {
      await runQuery(at, `confirming completed group ${id}`, pool, `DELETE FROM ${completed} WHERE id = $1`, [
        id,
      ]);
    },
    recover: (olderThanMs, limit) => recoverGroups(scope, retention, olderThanMs, limit),
    async expired(now, limit) {
      const found = await runQuery<{ key: string }>(
        at,
        "listing timed-out groups",
        pool,
        `SELECT key FROM ${groups} WHERE repository = $1 AND data IS NOT NULL AND timeout_at <= $2 ORDER BY timeout_at LIMIT $3`,
        [name, now, limit],
      );
      return found.rows.map((row) => row.key);
    },
    async keys() {
      const found = await runQuery<{ key: string }>(
        at,
        "listing open groups",
        pool,
        `SELECT key FROM ${groups} WHERE repository = $1 AND data IS NOT NULL`,
        [name],
      );
      return found.rows.map((row) => row.key);
    },
    async clear() {
      await runQuery(at, "deleting groups", pool, `DELETE FROM ${groups} WHERE repository = $1`, [name]);
      await runQuery(
        at,
        "deleting completed groups",
        pool,
        `DELETE FROM ${completed} WHERE repository = $1`,
        [name],
      );
    },
  };
}

async function readGroup(scope: Scope, key: string): Promise<SharedGroup | undefined> {
  const { at, pool, groups, name } = scope;
  const found = await runQuery<GroupRow>(
    at,
    `reading group '${key}'`,
    pool,
    `SELECT version, data, part_ids, timeout_at FROM ${groups} WHERE repository = $1 AND key = $2`,
    [name, key],
  );
  const row = found.rows[0];
  if (row === undefined) return undefined;
  const partIds = row.part_ids;
  if (!Array.isArray(partIds) || !partIds.every((id) => typeof id === "string")) {
    throw corrupt(
      scope,
      groups,
      key,
      `has part_ids ${preview(JSON.stringify(partIds))}, expected a JSON array of strings`,
    );
  }
  return {
    exchange: row.data === null ? undefined : decode(scope, groups, key, row.data),
    version: row.version,
    partIds,
    timeoutAt: row.timeout_at === null ? undefined : Number(row.timeout_at),
  };
}

async function writeGroup(scope: Scope, key: string, write: SharedGroupWrite): Promise<boolean> {
  const { at, pool, groups, name } = scope;
  const data = encode(scope, key, write);
  const values = [name, key, data, JSON.stringify(write.partIds), write.timeoutAt ?? null];
  const written =
    write.version === undefined
      ? await runQuery(
          at,
          `writing group '${key}'`,
          pool,
          `INSERT INTO ${groups} (repository, key, version, data, part_ids, timeout_at) VALUES ($1, $2, 1, $3, $4, $5)
           ON CONFLICT (repository, key) DO NOTHING`,
          values,
        )
      : await runQuery(
          at,
          `writing group '${key}'`,
          pool,
          `UPDATE ${groups} SET version = version + 1, data = $3, part_ids = $4, timeout_at = $5, closed_at = NULL
           WHERE repository = $1 AND key = $2 AND version = $6`,
          [...values, write.version],
        );
  return written.rowCount === 1;
}

async function completeGroup(
  scope: Scope,
  key: string,
  id: string,
  write: SharedGroupWrite,
): Promise<boolean> {
  const { at, pool, groups, completed, name } = scope;
  const data = encode(scope, key, write);
  const doing = `completing group '${key}'`;
  return inTransaction(at, doing, pool, async (client) => {
    const now = Date.now();
    const parts = JSON.stringify(write.partIds);
    const closed =
      write.version === undefined
        ? await runQuery(
            at,
            doing,
            client,
            `INSERT INTO ${groups} (repository, key, version, data, part_ids, closed_at) VALUES ($1, $2, 1, NULL, $3, $4)
             ON CONFLICT (repository, key) DO NOTHING`,
            [name, key, parts, now],
          )
        : await runQuery(
            at,
            doing,
            client,
            `UPDATE ${groups} SET version = version + 1, data = NULL, part_ids = $3, timeout_at = NULL, closed_at = $4
             WHERE repository = $1 AND key = $2 AND version = $5`,
            [name, key, parts, now, write.version],
          );
    if (closed.rowCount !== 1) return false;
    if (write.partIds.length === 0) {
      await runQuery(at, doing, client, `DELETE FROM ${groups} WHERE repository = $1 AND key = $2`, [
        name,
        key,
      ]);
    }
    await runQuery(
      at,
      doing,
      client,
      `INSERT INTO ${completed} (id, repository, key, data, attempts, claimed_at) VALUES ($1, $2, $3, $4, 0, $5)`,
      [id, name, key, data, now],
    );
    return true;
  });
}

async function recoverGroups(
  scope: Scope,
  retention: number,
  olderThanMs: number,
  limit: number,
): Promise<CompletedGroup[]> {
  const { at, pool, groups, completed, name } = scope;
  const now = Date.now();
  await runQuery(
    at,
    "deleting part ids of groups completed long ago",
    pool,
    `DELETE FROM ${groups} WHERE repository = $1 AND data IS NULL AND closed_at <= $2`,
    [name, now - retention],
  );
  const claimed = await runQuery<{ id: string; key: string; data: string; attempts: number }>(
    at,
    "recovering completed groups",
    pool,
    `UPDATE ${completed} SET claimed_at = $2, attempts = attempts + 1
     WHERE id IN (SELECT id FROM ${completed} WHERE repository = $1 AND claimed_at <= $3
                  ORDER BY claimed_at LIMIT $4 FOR UPDATE SKIP LOCKED)
     RETURNING id, key, data, attempts`,
    [name, now, now - olderThanMs, limit],
  );
  return claimed.rows.map(
    (row): CompletedGroup => ({
      id: row.id,
      key: row.key,
      exchange: decode(scope, completed, row.key, row.data),
      attempts: row.attempts,
    }),
  );
}
