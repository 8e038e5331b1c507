import { randomUUID } from "node:crypto";
import {
  defineComponent,
  definePlugin,
  EFFECT_KEY_HEADER,
  type Exchange,
  type Headers,
  type LifecycleHook,
  type Plugin,
  type RouteContext,
} from "@routekit/core";
import type { PgPool } from "./pg-pool.js";
import { checkInteger } from "./postgres-options.js";
import { inTransaction, runQuery } from "./postgres-query.js";
import { describeError, PostgresStoreError } from "./postgres-store-error.js";
import { TRANSACTION } from "./postgres-transaction.js";

/** Options of `store.outbox()`. */
export interface PostgresOutboxOptions {
  /** How often the relay looks for rows written by other instances, in ms. Default 500. */
  pollIntervalMs?: number;
  /** Most rows one relay pass claims and sends. Default 100. */
  batchSize?: number;
}

/** One row of the outbox table as read back. */
interface OutboxRow {
  readonly id: string;
  readonly uri: string;
  readonly encoding: "json" | "bytes";
  readonly body: string;
  readonly headers: Headers;
}

/** The URI scheme of outbox endpoints: `outbox:<destination URI>`. */
export const OUTBOX_SCHEME = "outbox";

/**
 * The outbox of a store: a plugin with the `outbox:` component and the relay. `.to("outbox:amqp:orders")`
 * inside a transacted idempotent consumer inserts the message into `<prefix>outbox` in the
 * exchange's transaction; once committed, the relay sends it to `amqp:orders` and deletes its
 * row. A rolled-back exchange leaves no row, so nothing is sent.
 */
export function createPostgresOutbox(
  pool: PgPool,
  where: string,
  table: string,
  options: PostgresOutboxOptions = {},
): Plugin {
  const site = "outbox()";
  const pollIntervalMs = checkInteger(site, "pollIntervalMs", options.pollIntervalMs, 500, 1);
  const batchSize = checkInteger(site, "batchSize", options.batchSize, 100, 1);
  const at = `${where}, outbox ${table}`;
  return definePlugin({
    name: "postgres-outbox",
    setup(context) {
      const relay = createRelay(context, pool, at, table, pollIntervalMs, batchSize);
      const component = defineComponent({
        scheme: OUTBOX_SCHEME,
        options: {},
        createEndpoint: (address) => {
          const destination = address.path;
          if (
            !/^[a-zA-Z][a-zA-Z0-9+.-]*:./.test(destination) ||
            destination.startsWith(`${OUTBOX_SCHEME}:`)
          ) {
            throw new PostgresStoreError(
              "OPTIONS_INVALID",
              `Endpoint '${address.uri}': expected 'outbox:' followed by the destination URI (e.g. 'outbox:amqp:queue:orders'), found destination '${destination}'`,
            );
          }
          if (context.componentTraits(destination) === undefined) {
            throw new PostgresStoreError(
              "OPTIONS_INVALID",
              `Endpoint '${address.uri}': no component of this context serves the destination '${destination}' (scheme '${destination.slice(0, destination.indexOf(":"))}'); install its plugin before adding the route`,
            );
          }
          return {
            uri: address.uri,
            send: (exchange) => insertRow(at, table, destination, exchange, relay.wake),
          };
        },
      });
      return { components: [component], lifecycle: { start: relay.start, stop: relay.stop } };
    },
  });
}

/** Writes the exchange's message into the outbox inside its transaction. */
async function insertRow(
  at: string,
  table: string,
  destination: string,
  exchange: Exchange,
  wake: () => void,
): Promise<void> {
  const transaction = TRANSACTION.get(exchange);
  if (transaction === undefined || transaction.ended) {
    throw new PostgresStoreError(
      "TRANSACTION_MISSING",
      `${at}: 'outbox:${destination}' expected an exchange inside idempotentConsumer(key, { repository }) with a repository from transactedIdempotentRepository(), found exchange ${exchange.id}${exchange.routeId === undefined ? "" : ` of route '${exchange.routeId}'`} with ${transaction === undefined ? "no open transaction" : "its transaction already ended"}; send to '${destination}' directly outside such a block`,
    );
  }
  const body: unknown = exchange.body;
  let encoded: { encoding: "json" | "bytes"; text: string };
  let headers: string;
  try {
    encoded =
      body instanceof Uint8Array
        ? { encoding: "bytes", text: Buffer.from(body).toString("base64") }
        : { encoding: "json", text: JSON.stringify(body ?? null) };
    headers = JSON.stringify(exchange.headers);
  } catch (error) {
    throw new PostgresStoreError(
      "VALUE_CORRUPT",
      `${at}: 'outbox:${destination}' expected a body and headers that JSON can store (or a Uint8Array body), found a value JSON.stringify refused: ${describeError(error)}`,
      { cause: error },
    );
  }
  await transaction.query(
    `INSERT INTO ${table} (id, created_at, uri, encoding, body, headers) VALUES ($1, $2, $3, $4, $5, $6)`,
    [randomUUID(), Date.now(), destination, encoded.encoding, encoded.text, headers],
  );
  transaction.afterCommit(wake);
}

interface Relay {
  readonly start: () => void;
  readonly stop: NonNullable<LifecycleHook["stop"]>;
  /** Runs a pass soon (a transaction with outbox rows committed in this process). */
  readonly wake: () => void;
}

/**
 * Sends committed outbox rows to their destinations: each pass claims up to `batchSize` rows with
 * `FOR UPDATE SKIP LOCKED` (so two instances never send one row at once), sends them in order
 * and deletes the sent ones in the same transaction. A crash between a send and the commit sends
 * the row again later (at least once); each message carries its row id as effect key
 * (`routekit.effectKey`: AMQP `message-id`, HTTP `Idempotency-Key`) so receivers can deduplicate.
 */
function createRelay(
  context: RouteContext,
  pool: PgPool,
  at: string,
  table: string,
  pollIntervalMs: number,
  batchSize: number,
): Relay {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;

  const schedule = (delayMs: number): void => {
    if (!running || pass !== undefined) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  };
  const run = (): void => {
    timer = undefined;
    if (!running || pass !== undefined) return;
    again = false;
    pass = relayPass(context, pool, at, table, batchSize)
      .then(
        (full) => full,
        (error: unknown) => {
          context.logger.warn(
            `${at}: relaying failed, trying again in ${pollIntervalMs} ms: ${describeError(error)}`,
          );
          return false;
        },
      )
      .then((full) => {
        pass = undefined;
        schedule(full || again ? 0 : pollIntervalMs);
      });
  };
  return {
    start: () => {
      running = true;
      schedule(0);
    },
    stop: async (budget) => {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      if (pass === undefined) return;
      await Promise.race([
        pass,
        new Promise<void>((resolve) =>
          budget.signal.addEventListener("abort", () => resolve(), { once: true }),
        ),
      ]);
    },
    wake: () => {
      if (pass !== undefined) again = true;
      else schedule(0);
    },
  };
}

/** One pass; true when it claimed a full batch (more may be waiting). */
async function relayPass(
  context: RouteContext,
  pool: PgPool,
  at: string,
  table: string,
  batchSize: number,
): Promise<boolean> {
  return inTransaction(at, "relaying outbox rows", pool, async (client) => {
    const claimed = await runQuery<OutboxRow>(
      at,
      "claiming outbox rows",
      client,
      `SELECT id, uri, encoding, body, headers FROM ${table} ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    const sent: string[] = [];
    for (const row of claimed.rows) {
      const body =
        row.encoding === "bytes" ? new Uint8Array(Buffer.from(row.body, "base64")) : JSON.parse(row.body);
      const headers = { ...row.headers };
      headers[EFFECT_KEY_HEADER] ??= `outbox:${row.id}`;
      try {
        await context.send(row.uri, body, headers);
      } catch (error) {
        // The row stays: a later pass sends it again.
        context.logger.warn(
          `${at}: sending outbox row ${row.id} to '${row.uri}' failed: ${describeError(error)}`,
        );
        continue;
      }
      sent.push(row.id);
    }
    if (sent.length > 0) {
      await runQuery(
        at,
        "deleting sent outbox rows",
        client,
        `DELETE FROM ${table} WHERE id = ANY($1::uuid[])`,
        [sent],
      );
    }
    return claimed.rows.length === batchSize && sent.length === claimed.rows.length;
  });
}
