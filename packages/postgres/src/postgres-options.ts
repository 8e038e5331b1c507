import { storeOptionChecks } from "@routekit/core/internal";
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

const KNOWN = [
  "host",
  "port",
  "database",
  "user",
  "password",
  "tablePrefix",
  "migrate",
  "maxConnections",
  "connectTimeoutMs",
  "queryTimeoutMs",
];

/** The shared store option checks, each error an PostgresStoreError "OPTIONS_INVALID". */
const checks = storeOptionChecks((message) => new PostgresStoreError("OPTIONS_INVALID", message));
const { invalid, checkKnown } = checks;
/** Checks a whole number option of `where`; undefined gives the default. */
export const checkInteger = checks.checkInteger;
/** Checks a repository name. */
export const checkName = checks.checkName;

/** Table prefixes become parts of SQL identifiers: lower-case letters, digits and `_` only. */
const PREFIX_PATTERN = /^[a-z_][a-z0-9_]{0,39}$/;

function checkText(where: string, name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value === "")
    throw invalid(`${where} option '${name}'`, "a non-empty string", value);
  return value;
}

export function resolvePostgresOptions(options: PostgresStoreOptions): ResolvedPostgresStoreOptions {
  const where = "connectPostgres()";
  checkKnown(where, options, KNOWN);
  const tablePrefix = options.tablePrefix ?? "routekit_";
  if (typeof tablePrefix !== "string" || !PREFIX_PATTERN.test(tablePrefix)) {
    throw invalid(
      `${where} option 'tablePrefix'`,
      "1-40 lower-case letters, digits or '_', not starting with a digit",
      tablePrefix,
    );
  }
  if (options.migrate !== undefined && typeof options.migrate !== "boolean") {
    throw invalid(`${where} option 'migrate'`, "a boolean", options.migrate);
  }
  return {
    host: checkText(where, "host", options.host, "127.0.0.1"),
    port: checkInteger(where, "port", options.port, 5432, 1),
    database: checkText(where, "database", options.database, "postgres"),
    user: checkText(where, "user", options.user, "postgres"),
    password: options.password,
    tablePrefix,
    migrate: options.migrate ?? false,
    maxConnections: checkInteger(where, "maxConnections", options.maxConnections, 10, 1),
    connectTimeoutMs: checkInteger(where, "connectTimeoutMs", options.connectTimeoutMs, 5000, 1),
    queryTimeoutMs: checkInteger(where, "queryTimeoutMs", options.queryTimeoutMs, 5000, 1),
  };
}
