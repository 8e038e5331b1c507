import { randomUUID } from "node:crypto";
import { howToStart, skipForMissing } from "@routekit/test-support";
import pg from "pg";

/** The PostgreSQL the tests use (loopback only). */
export const postgresHost = "127.0.0.1";
export const postgresPort = Number(process.env.POSTGRES_PORT ?? 5432);
export const postgresDatabase = process.env.POSTGRES_DATABASE ?? "postgres";
export const postgresUser = process.env.POSTGRES_USER ?? "postgres";

/** Connection settings for pg and for connectPostgres. */
export const postgresConnection = {
  host: postgresHost,
  port: postgresPort,
  database: postgresDatabase,
  user: postgresUser,
};

async function probe(): Promise<boolean> {
  const client = new pg.Client({ ...postgresConnection, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (error) {
    skipForMissing(`PostgreSQL on ${postgresHost}:${postgresPort}`, howToStart("PostgreSQL"), error);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True when PostgreSQL answers; false (after one line saying how to start it) when it does not. */
export const postgresAvailable = await probe();

/** A table prefix of its own for one test file or test. */
export function uniquePrefix(label: string): string {
  return `rk_test_${label}_${randomUUID().slice(0, 8)}_`;
}

/** A plain client for looking at rows from outside routekit and cleaning up. */
export async function inspector(): Promise<pg.Client> {
  const client = new pg.Client(postgresConnection);
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Drops the tables a prefix's migration created. */
export async function dropTables(client: pg.Client, prefix: string): Promise<void> {
  for (const table of ["idempotent", "aggregation_group", "aggregation_completed", "checkpoint", "outbox"]) {
    await client.query(`DROP TABLE IF EXISTS ${prefix}${table}`);
  }
}
