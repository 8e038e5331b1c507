import { checkOptions, type OptionChecks, storeOptionChecks } from "@routekit/core/internal";
import { PostgresStoreError } from "./postgres-store-error.js";

/** Options of `connectPostgres`. */
export interface PostgresStoreOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 5432. */
  port?: number;
  /** Default "postgres". */
  database?: string;
  /** Default "postgres". */
  user?: string;
  password?: string;
  /** Prefix of the tables routekit creates and uses. Default "routekit_". */
  tablePrefix?: string;
  /** Create the tables when connecting (the same as calling `migrate()`). Default false. */
  migrate?: boolean;
  /** Connections in the pool. Default 10. */
  maxConnections?: number;
  /** How long connecting may take, in ms. Default 5000. */
  connectTimeoutMs?: number;
  /** How long one statement may run before it fails, in ms. Default 5000. */
  queryTimeoutMs?: number;
}

/** The options with their defaults, checked. */
export type ResolvedPostgresStoreOptions = Required<Omit<PostgresStoreOptions, "password">> &
  Pick<PostgresStoreOptions, "password">;

/** Table prefixes become parts of SQL identifiers: lower-case letters, digits and `_` only. */
const PREFIX_PATTERN = /^[a-z_][a-z0-9_]{0,39}$/;

const SITE = {
  where: "connectPostgres()",
  error: (message: string) => new PostgresStoreError("OPTIONS_INVALID", message),
};
const CHECKS = {
  host: { type: "string", nonEmpty: true, default: "127.0.0.1" },
  port: { type: "integer", min: 1, max: 65535, default: 5432 },
  database: { type: "string", nonEmpty: true, default: "postgres" },
  user: { type: "string", nonEmpty: true, default: "postgres" },
  password: { type: "string", secret: true },
  tablePrefix: {
    type: "string",
    pattern: PREFIX_PATTERN,
    expected: "1-40 lower-case letters, digits or '_', not starting with a digit",
    default: "routekit_",
  },
  migrate: { type: "boolean", default: false },
  maxConnections: { type: "integer", min: 1, default: 10 },
  connectTimeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 5000 },
  queryTimeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 5000 },
} as const satisfies OptionChecks;

/** The shared store option checks, each error an PostgresStoreError "OPTIONS_INVALID". */
const checks = storeOptionChecks((message) => new PostgresStoreError("OPTIONS_INVALID", message));
/** Checks a whole number option of `where`; undefined gives the default. */
export const checkInteger = checks.checkInteger;
/** Checks a repository name. */
export const checkName = checks.checkName;

export function resolvePostgresOptions(options: PostgresStoreOptions): ResolvedPostgresStoreOptions {
  return checkOptions(CHECKS, options, SITE);
}
