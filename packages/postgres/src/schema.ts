import type { PgPool } from "./pg-pool.js";
import { inTransaction, runQuery } from "./postgres-query.js";

/** The table names for a prefix. */
export interface TableNames {
  readonly idempotent: string;
  readonly groups: string;
  readonly completed: string;
  readonly checkpoints: string;
  readonly outbox: string;
}

export function tableNames(prefix: string): TableNames {
  return {
    idempotent: `${prefix}idempotent`,
    groups: `${prefix}aggregation_group`,
    completed: `${prefix}aggregation_completed`,
    checkpoints: `${prefix}checkpoint`,
    outbox: `${prefix}outbox`,
  };
}

/** The statements `migrate()` runs; each is safe to run again. Times are ms since the epoch. */
export function schemaStatements(prefix: string): string[] {
  const tables = tableNames(prefix);
  return [
    `CREATE TABLE IF NOT EXISTS ${tables.idempotent} (
      repository text NOT NULL,
      key text NOT NULL,
      state text NOT NULL CHECK (state IN ('claimed', 'done')),
      token text,
      expires_at bigint,
      PRIMARY KEY (repository, key)
    )`,
    `CREATE TABLE IF NOT EXISTS ${tables.groups} (
      repository text NOT NULL,
      key text NOT NULL,
      version integer NOT NULL,
      data text,
      part_ids jsonb NOT NULL DEFAULT '[]',
      timeout_at bigint,
      closed_at bigint,
      PRIMARY KEY (repository, key)
    )`,
    `CREATE INDEX IF NOT EXISTS ${tables.groups}_timeout ON ${tables.groups} (repository, timeout_at) WHERE data IS NOT NULL`,
    `CREATE TABLE IF NOT EXISTS ${tables.completed} (
      id uuid PRIMARY KEY,
      repository text NOT NULL,
      key text NOT NULL,
      data text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      claimed_at bigint NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${tables.completed}_claimed ON ${tables.completed} (repository, claimed_at)`,
    `CREATE TABLE IF NOT EXISTS ${tables.checkpoints} (
      store text NOT NULL,
      id text NOT NULL,
      version integer NOT NULL,
      status text NOT NULL,
      owner text,
      lease_until bigint,
      updated_at bigint NOT NULL,
      state text NOT NULL,
      PRIMARY KEY (store, id)
    )`,
    `CREATE INDEX IF NOT EXISTS ${tables.checkpoints}_status ON ${tables.checkpoints} (store, status, lease_until)`,
    `CREATE TABLE IF NOT EXISTS ${tables.outbox} (
      id uuid PRIMARY KEY,
      created_at bigint NOT NULL,
      uri text NOT NULL,
      encoding text NOT NULL CHECK (encoding IN ('json', 'bytes')),
      body text NOT NULL,
      headers jsonb NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${tables.outbox}_created ON ${tables.outbox} (created_at)`,
  ];
}

/**
 * Creates the tables (when missing) in one transaction. An advisory lock serialises instances
 * that migrate at the same moment (concurrent CREATE TABLE IF NOT EXISTS can otherwise collide).
 */
export async function migrateSchema(where: string, pool: PgPool, prefix: string): Promise<void> {
  await inTransaction(where, "creating the tables", pool, async (client) => {
    await runQuery(where, "taking the migration lock", client, "SELECT pg_advisory_xact_lock(hashtext($1))", [
      `routekit-migrate:${prefix}`,
    ]);
    for (const statement of schemaStatements(prefix)) {
      await runQuery(where, "creating the tables", client, statement);
    }
  });
}

/** Drops the tables of a prefix (every repository's rows with them). */
export async function dropSchema(where: string, pool: PgPool, prefix: string): Promise<void> {
  const tables = tableNames(prefix);
  await runQuery(
    where,
    "dropping the tables",
    pool,
    `DROP TABLE IF EXISTS ${tables.idempotent}, ${tables.groups}, ${tables.completed}, ${tables.checkpoints}, ${tables.outbox}`,
  );
}
