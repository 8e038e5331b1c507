// Exchanges/s through an idempotent consumer whose keys are on Redis, on PostgreSQL and in memory,
// beside hand-written loops making the same calls to the same server (claim with SET NX PX /
// INSERT … ON CONFLICT, then the confirm) with the same number of keys in flight, same run, in
// rounds whose order rotates.
// Usage: tsx bench/stores.ts [--quick]
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { createContext, type IdempotentRepository, type RouteContext } from "@routekit/core";
import { connectPostgres, type PostgresStore } from "@routekit/postgres";
import { connectRedis, type RedisStore } from "@routekit/redis";
import { Redis } from "ioredis";
import pg from "pg";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf, type Stats } from "./harness.js";

/** Keys in flight at once on both sides. */
const CONCURRENCY = 8;
const CLAIM_MS = 30_000;
const CONFIRM = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  if ARGV[2] == '' then redis.call('SET', KEYS[1], 'done') else redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) end
  return 1
end
return 0`;

/** Runs `work(index)` for `count` indexes with CONCURRENCY in flight. */
async function inFlight(count: number, work: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

/** A context with one route: direct:in → idempotentConsumer(repository) → a step that does nothing. */
async function routeWith(repository?: IdempotentRepository): Promise<RouteContext> {
  const context = createContext();
  await context.addRoutes((r) =>
    r
      .from("direct:in")
      .idempotentConsumer("${body}", repository === undefined ? {} : { repository })
      .process(() => {}),
  );
  await context.start();
  return context;
}

function row(
  store: string,
  baseline: string,
  description: string,
  subject: Stats,
  base: Stats,
  count: number,
): BenchRow {
  const perSecond = (ns: number) => Math.round(1e9 / ns);
  const handWritten = baseline.startsWith("hand-written");
  return rowOf(
    {
      benchmark: handWritten
        ? `idempotent consumer on ${store} (${count} new keys, ${CONCURRENCY} in flight)`
        : `idempotent consumer on ${store} beside the in-memory repository (${count} new keys per run on ${store}, ${CONCURRENCY} in flight)`,
      subject: "routekit idempotentConsumer",
      baseline,
      baselineDescription: description,
      subjectStats: subject,
      baselineStats: base,
      target: handWritten ? "≥ 0.8× the hand-written throughput" : "context",
      note: handWritten
        ? `${perSecond(subject.medianNs)} vs ${perSecond(base.medianNs)} exchanges/s: ${(base.medianNs / subject.medianNs).toFixed(2)}× the ${baseline} throughput`
        : `${perSecond(subject.medianNs)} vs ${perSecond(base.medianNs)} exchanges/s: the in-memory repository makes no round trip`,
    },
    // Rows beside the in-memory repository are context (round trips against a Map).
    (ratio) => !handWritten || 1 / ratio >= 0.8,
  );
}

export async function runStoresBench(options: BenchOptions): Promise<BenchRow[]> {
  // PostgreSQL commits (and flushes its log) for every claim and confirm: fewer keys there.
  const count = options.quick ? 500 : 3_000;
  const postgresCount = options.quick ? 200 : 1_000;
  const runs = options.quick ? 2 : 10;
  const prefix = `bench_${randomUUID().slice(0, 8)}_`;
  let redis: RedisStore;
  let postgres: PostgresStore;
  try {
    redis = await connectRedis({ keyPrefix: prefix });
    postgres = await connectPostgres({ tablePrefix: prefix, migrate: true });
  } catch (error) {
    const line = `stores bench skipped: ${String(error)} — start the servers with \`bash .ci/start-services.sh\``;
    if (process.env.CI === "true") throw new Error(line);
    console.log(line);
    return [];
  }
  const rawRedis = new Redis({ host: "127.0.0.1", port: 6379 });
  const pool = new pg.Pool({
    host: "127.0.0.1",
    port: 5432,
    database: "postgres",
    user: "postgres",
    max: 10,
  });
  pool.on("error", () => {});
  const table = `${prefix}idempotent`;
  const contexts: RouteContext[] = [];
  let round = 0;
  const keyOf = (side: string, index: number) => `${side}-${round}-${index}`;
  try {
    const redisRoute = await routeWith(redis.idempotentRepository("bench"));
    const postgresRoute = await routeWith(postgres.idempotentRepository("bench"));
    const memoryRoute = await routeWith();
    contexts.push(redisRoute, postgresRoute, memoryRoute);
    const through = (context: RouteContext, side: string) => async (iterations: number) => {
      round++;
      await inFlight(iterations, (index) => context.request("direct:in", keyOf(side, index)));
    };
    const redisLoop = async (iterations: number) => {
      round++;
      await inFlight(iterations, async (index) => {
        const key = `${prefix}:idempotent:hand:${keyOf("h", index)}`;
        const token = `claimed:${randomUUID()}`;
        if ((await rawRedis.set(key, token, "PX", CLAIM_MS, "NX")) === "OK")
          await rawRedis.eval(CONFIRM, 1, key, token, "");
      });
    };
    const postgresLoop = async (iterations: number) => {
      round++;
      await inFlight(iterations, async (index) => {
        const key = keyOf("h", index);
        const token = randomUUID();
        const now = Date.now();
        const claimed = await pool.query(
          `INSERT INTO ${table} (repository, key, state, token, expires_at) VALUES ($1, $2, 'claimed', $3, $4)
           ON CONFLICT (repository, key) DO UPDATE SET state = 'claimed', token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
           WHERE ${table}.expires_at IS NOT NULL AND ${table}.expires_at <= $5`,
          ["hand", key, token, now + CLAIM_MS, now],
        );
        if (claimed.rowCount === 1) {
          await pool.query(
            `UPDATE ${table} SET state = 'done', token = NULL, expires_at = $4 WHERE repository = $1 AND key = $2 AND token = $3`,
            ["hand", key, token, null],
          );
        }
      });
    };
    const [onRedis, byRedis] = await compareAll([through(redisRoute, "r"), redisLoop], count, runs);
    // Each run takes as many new keys as its row says: `count` on Redis and in memory,
    // `postgresCount` on PostgreSQL (the time is per key either way).
    const [onPostgres, byPostgres] = await compareAll(
      [through(postgresRoute, "p"), postgresLoop],
      postgresCount,
      runs,
    );
    const [inMemory, onRedisAgain, onPostgresAgain] = await compareAll(
      [through(memoryRoute, "m"), through(redisRoute, "r2"), through(postgresRoute, "p2")],
      [count, count, postgresCount],
      runs,
    );
    return [
      row(
        "Redis",
        "hand-written SET NX loop",
        "ioredis alone: SET key claimed:<token> PX NX, then the same confirm script (EVAL), the same keys in flight",
        onRedis!,
        byRedis!,
        count,
      ),
      row(
        "PostgreSQL",
        "hand-written INSERT ON CONFLICT loop",
        "pg alone: the same INSERT … ON CONFLICT DO UPDATE … WHERE expired claim, then the same UPDATE confirm, the same keys in flight",
        onPostgres!,
        byPostgres!,
        postgresCount,
      ),
      row(
        "Redis",
        "in-memory repository",
        "the same route with the default in-memory repository",
        onRedisAgain!,
        inMemory!,
        count,
      ),
      row(
        "PostgreSQL",
        "in-memory repository",
        "the same route with the default in-memory repository",
        onPostgresAgain!,
        inMemory!,
        postgresCount,
      ),
    ];
  } finally {
    for (const context of contexts) await context.stop();
    await redis.idempotentRepository("bench").clear();
    let cursor = "0";
    do {
      const [next, keys] = await rawRedis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await rawRedis.del(...keys);
    } while (cursor !== "0");
    await postgres.dropTables();
    await Promise.all([redis.close(), postgres.close(), pool.end()]);
    rawRedis.disconnect();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runStoresBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
