import { STORE_NAME_PATTERN, storeOptionChecks } from "@routekit/core/internal";
import { RedisStoreError } from "./redis-store-error.js";

/** Options of `connectRedis`. */
export interface RedisStoreOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 6379. */
  port?: number;
  /** Database index. Default 0. */
  db?: number;
  username?: string;
  password?: string;
  /** First part of every key routekit writes. Default "routekit". */
  keyPrefix?: string;
  /** How long connecting may take, in ms. Default 5000. */
  connectTimeoutMs?: number;
  /** How long one command may take before it fails, in ms. Default 5000. */
  commandTimeoutMs?: number;
}

/** The options with their defaults, checked. */
export type ResolvedRedisStoreOptions = Required<Omit<RedisStoreOptions, "username" | "password">> &
  Pick<RedisStoreOptions, "username" | "password">;

const KNOWN = [
  "host",
  "port",
  "db",
  "username",
  "password",
  "keyPrefix",
  "connectTimeoutMs",
  "commandTimeoutMs",
];

/** The shared store option checks, each error a RedisStoreError "OPTIONS_INVALID". */
const checks = storeOptionChecks((message) => new RedisStoreError("OPTIONS_INVALID", message));
const { invalid, checkKnown } = checks;
/** Checks a whole number option of `where`; undefined gives the default. */
export const checkInteger = checks.checkInteger;
/** Checks a repository name. */
export const checkName = checks.checkName;

export function resolveRedisOptions(options: RedisStoreOptions): ResolvedRedisStoreOptions {
  const where = "connectRedis()";
  checkKnown(where, options, KNOWN);
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host === "") throw invalid(`${where} option 'host'`, "a host name", host);
  const keyPrefix = options.keyPrefix ?? "routekit";
  if (typeof keyPrefix !== "string" || !STORE_NAME_PATTERN.test(keyPrefix)) {
    throw invalid(`${where} option 'keyPrefix'`, "1-100 letters, digits, '.', '_' or '-'", keyPrefix);
  }
  return {
    host,
    port: checkInteger(where, "port", options.port, 6379, 1),
    db: checkInteger(where, "db", options.db, 0, 0),
    username: options.username,
    password: options.password,
    keyPrefix,
    connectTimeoutMs: checkInteger(where, "connectTimeoutMs", options.connectTimeoutMs, 5000, 1),
    commandTimeoutMs: checkInteger(where, "commandTimeoutMs", options.commandTimeoutMs, 5000, 1),
  };
}
