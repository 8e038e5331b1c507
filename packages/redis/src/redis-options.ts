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

/** Names of repositories and key prefixes: letters, digits, `.`, `_`, `-`. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function invalid(what: string, expected: string, found: unknown): RedisStoreError {
  return new RedisStoreError(
    "OPTIONS_INVALID",
    `${what} must be ${expected}, found ${typeof found === "string" ? JSON.stringify(found) : String(found)}`,
  );
}

/** Checks a whole number option of `where`; undefined gives the default. */
export function checkInteger(
  where: string,
  name: string,
  value: unknown,
  fallback: number,
  minimum: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < minimum) {
    throw invalid(`${where} option '${name}'`, `an integer >= ${minimum}`, value);
  }
  return value;
}

/** Checks a repository name (it becomes part of Redis keys). */
export function checkName(where: string, name: unknown): string {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw invalid(`${where} name`, "1-100 letters, digits, '.', '_' or '-'", name);
  }
  return name;
}

export function resolveRedisOptions(options: RedisStoreOptions): ResolvedRedisStoreOptions {
  const where = "connectRedis()";
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) throw invalid(`${where} option '${key}'`, `one of ${KNOWN.join(", ")}`, key);
  }
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host === "") throw invalid(`${where} option 'host'`, "a host name", host);
  const keyPrefix = options.keyPrefix ?? "routekit";
  if (typeof keyPrefix !== "string" || !NAME_PATTERN.test(keyPrefix)) {
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
