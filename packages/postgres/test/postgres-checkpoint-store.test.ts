import { connectPostgres, type PostgresStore } from "@routekit/postgres";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkpointStoreContract } from "../../core/test/support/checkpoint-store-contract.js";
import {
  dropTables,
  inspector,
  postgresAvailable,
  postgresConnection,
  uniquePrefix,
} from "./support/postgres-server.js";

describe.skipIf(!postgresAvailable)("PostgreSQL checkpoint store", () => {
  const prefix = uniquePrefix("ckpt");
  let raw: pg.Client;
  let stores: PostgresStore[] = [];
  let names = 0;

  beforeAll(async () => {
    raw = await inspector();
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    stores = [];
  });
  afterAll(async () => {
    await dropTables(raw, prefix);
    await raw.end();
  });

  const connect = async (): Promise<PostgresStore> => {
    const connected = await connectPostgres({ ...postgresConnection, tablePrefix: prefix, migrate: true });
    stores.push(connected);
    return connected;
  };

  checkpointStoreContract(async () => (await connect()).checkpointStore(`runs${names++}`));

  it("a state that is not JSON is refused with VALUE_CORRUPT, naming the record", async () => {
    const store = (await connect()).checkpointStore("corrupt");
    await raw.query(
      `INSERT INTO ${prefix}checkpoint (store, id, version, status, updated_at, state) VALUES ('corrupt', 'bad', 1, 'running', 0, '{not json')`,
    );
    await expect(store.get("bad")).rejects.toThrow(
      /checkpoint store 'corrupt': record 'bad' holds a state that is not JSON/,
    );
  });
});
