import type { CheckpointRecord, CheckpointStore } from "@routekit/core";
import type { CheckpointQuery } from "@routekit/core/internal";
import type { PgPool } from "./pg-pool.js";
import { checkName } from "./postgres-options.js";
import { runQuery } from "./postgres-query.js";
import { PostgresStoreError } from "./postgres-store-error.js";

interface CheckpointRow {
  id: string;
  version: number;
  status: string;
  owner: string | null;
  lease_until: string | null;
  updated_at: string;
  state: string;
}

const COLUMNS = "id, version, status, owner, lease_until, updated_at, state";

/**
 * Checkpoint records in one table (`<tablePrefix>checkpoint`, made by `migrate()`), a row per
 * record. A first write inserts (a second insert of the same id does nothing), later writes update
 * only the row still at the version read — one statement each, so no transaction is held open.
 */
export function createPostgresCheckpointStore(
  pool: PgPool,
  where: string,
  table: string,
  name: string,
): CheckpointStore {
  checkName("checkpointStore()", name);
  const at = `${where}, checkpoint store '${name}'`;
  const decode = (row: CheckpointRow): CheckpointRecord => decodeRow(at, row);
  return {
    async get(id) {
      const { rows } = await runQuery<CheckpointRow>(
        at,
        `reading record '${id}'`,
        pool,
        `SELECT ${COLUMNS} FROM ${table} WHERE store = $1 AND id = $2`,
        [name, id],
      );
      return rows[0] === undefined ? undefined : decode(rows[0]);
    },
    async write(record) {
      const values = [
        name,
        record.id,
        record.version,
        record.status,
        record.owner ?? null,
        record.leaseUntil ?? null,
        record.updatedAt,
        JSON.stringify(record.state),
      ];
      const statement =
        record.version === 1
          ? `INSERT INTO ${table} (store, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (store, id) DO NOTHING`
          : `UPDATE ${table} SET version = $3, status = $4, owner = $5, lease_until = $6, updated_at = $7, state = $8
             WHERE store = $1 AND id = $2 AND version = $3 - 1`;
      const { rowCount } = await runQuery(at, `writing record '${record.id}'`, pool, statement, values);
      return rowCount === 1;
    },
    async list(query: CheckpointQuery = {}) {
      const { conditions, values } = listConditions(name, query);
      const { rows } = await runQuery<CheckpointRow>(
        at,
        "listing records",
        pool,
        `SELECT ${COLUMNS} FROM ${table} WHERE ${conditions.join(" AND ")} ORDER BY updated_at LIMIT $${values.length}`,
        values,
      );
      return rows.map(decode);
    },
    async remove(id) {
      await runQuery(
        at,
        `removing record '${id}'`,
        pool,
        `DELETE FROM ${table} WHERE store = $1 AND id = $2`,
        [name, id],
      );
    },
  };
}

/** The WHERE conditions of `list` and their values; the last value is the limit. */
function listConditions(name: string, query: CheckpointQuery): { conditions: string[]; values: unknown[] } {
  const conditions = ["store = $1"];
  const values: unknown[] = [name];
  if (query.status !== undefined) {
    values.push(query.status);
    conditions.push(`status = $${values.length}`);
  }
  if (query.leaseExpiredBefore !== undefined) {
    values.push(query.leaseExpiredBefore);
    conditions.push(`(lease_until IS NULL OR lease_until < $${values.length})`);
  }
  values.push(query.limit ?? 100);
  return { conditions, values };
}

function decodeRow(at: string, row: CheckpointRow): CheckpointRecord {
  let state: unknown;
  try {
    state = JSON.parse(row.state);
  } catch (error) {
    throw new PostgresStoreError(
      "VALUE_CORRUPT",
      `${at}: record '${row.id}' holds a state that is not JSON (not written by routekit)`,
      { cause: error },
    );
  }
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    owner: row.owner ?? undefined,
    leaseUntil: row.lease_until === null ? undefined : Number(row.lease_until),
    updatedAt: Number(row.updated_at),
    state,
  };
}
