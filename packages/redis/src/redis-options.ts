import {
  checkOptions,
  type OptionChecks,
  STORE_NAME_PATTERN,
  storeOptionChecks,
} from "@routekit/core/internal";
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

const SITE = {
  where: "connectRedis()",
  error: (message: string) => new RedisStoreError("OPTIONS_INVALID", message),
};
const CHECKS = {
  host: { type: "string", nonEmpty: true, expected: "a host name", default: "127.0.0.1" },
  port: { type: "integer", min: 1, max: 65535, default: 6379 },
  db: { type: "integer", min: 0, default: 0 },
  username: { type: "string" },
  password: { type: "string", secret: true },
  keyPrefix: {
    type: "string",
    pattern: STORE_NAME_PATTERN,
    expected: "1-100 letters, digits, '.', '_' or '-'",
    default: "routekit",
  },
  connectTimeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 5000 },
  commandTimeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 5000 },
} as const satisfies OptionChecks;

/** The shared store option checks, each error a RedisStoreError "OPTIONS_INVALID". */
const checks = storeOptionChecks((message) => new RedisStoreError("OPTIONS_INVALID", message));
/** Checks a whole number option of `where`; undefined gives the default. */
export const checkInteger = checks.checkInteger;
/** Checks a repository name. */
export const checkName = checks.checkName;

export function resolveRedisOptions(options: RedisStoreOptions): ResolvedRedisStoreOptions {
  return checkOptions(CHECKS, options, SITE);
}
