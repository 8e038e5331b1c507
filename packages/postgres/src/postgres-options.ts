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

/** Names of repositories: letters, digits, `.`, `_`, `-`. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** Table prefixes become parts of SQL identifiers: lower-case letters, digits and `_` only. */
const PREFIX_PATTERN = /^[a-z_][a-z0-9_]{0,39}$/;

function invalid(what: string, expected: string, found: unknown): PostgresStoreError {
  return new PostgresStoreError(
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

/** Checks a repository name (stored in a column beside each key). */
export function checkName(where: string, name: unknown): string {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw invalid(`${where} name`, "1-100 letters, digits, '.', '_' or '-'", name);
  }
  return name;
}

function checkText(where: string, name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value === "")
    throw invalid(`${where} option '${name}'`, "a non-empty string", value);
  return value;
}

export function resolvePostgresOptions(options: PostgresStoreOptions): ResolvedPostgresStoreOptions {
  const where = "connectPostgres()";
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) throw invalid(`${where} option '${key}'`, `one of ${KNOWN.join(", ")}`, key);
  }
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
