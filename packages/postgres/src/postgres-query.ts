import type { PgPool, PgPoolClient } from "./pg-pool.js";
import { describeError, PostgresStoreError } from "./postgres-store-error.js";

/** Where queries go: the pool, or one client inside a transaction. */
export type Queryable = PgPool | PgPoolClient;

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
  "57P03",
]);

/**
 * Runs one statement and turns its failure into a PostgresStoreError saying where: a missing
 * table is SCHEMA_MISSING (call `migrate()`), anything else (a lost connection, a timeout)
 * QUERY_FAILED.
 */
export async function runQuery<TRow extends object>(
  where: string,
  what: string,
  target: Queryable,
  text: string,
  values: unknown[] = [],
): Promise<{ rows: TRow[]; rowCount: number }> {
  try {
    const result = await target.query<TRow>(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  } catch (error) {
    throw queryError(where, what, error);
  }
}

export function queryError(where: string, what: string, error: unknown): PostgresStoreError {
  if (error instanceof PostgresStoreError) return error;
  const code = (error as { code?: unknown }).code;
  const message = describeError(error);
  if (code === "42P01") {
    return new PostgresStoreError(
      "SCHEMA_MISSING",
      `${where}: ${what} failed: ${message}; create the tables with migrate() (or connectPostgres({ migrate: true }))`,
      { cause: error },
    );
  }
  const lost =
    (typeof code === "string" && CONNECTION_CODES.has(code)) ||
    /Connection terminated|timeout|not queryable|ended/i.test(message);
  return new PostgresStoreError(
    "QUERY_FAILED",
    `${where}: ${what} failed: ${lost ? `the connection is lost or not answering (${message})` : message}`,
    { cause: error },
  );
}

/** Runs `work` in a transaction on one client of the pool; rolls back when it throws. */
export async function inTransaction<TResult>(
  where: string,
  what: string,
  pool: PgPool,
  work: (client: PgPoolClient) => Promise<TResult>,
): Promise<TResult> {
  let client: PgPoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw queryError(where, what, error);
  }
  let broken: unknown;
  try {
    await runQuery(where, what, client, "BEGIN");
    const result = await work(client);
    await runQuery(where, what, client, "COMMIT");
    return result;
  } catch (error) {
    broken = error;
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    // A client whose connection broke is destroyed instead of going back to the pool.
    client.release(broken instanceof Error && !(broken instanceof PostgresStoreError) ? broken : undefined);
  }
}
