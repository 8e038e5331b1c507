// The part of pg's pool that routekit uses, declared here: pg ships no types of its own, and
// routekit's published declarations must compile without `@types/pg` in the user's project.
// connect-postgres.ts hands pg's real Pool to these types, so the compiler checks they agree.

/** What one statement returns. */
export interface PgQueryResult<TRow> {
  readonly rows: TRow[];
  readonly rowCount: number | null;
}

/** A pool or one of its clients: runs a statement with `$1`-style values. */
export interface PgQueryable {
  query<TRow extends object>(text: string, values?: unknown[]): Promise<PgQueryResult<TRow>>;
}

/** A client checked out of the pool; `release(error)` destroys it instead of returning it. */
export interface PgPoolClient extends PgQueryable {
  release(error?: Error | boolean): void;
  /** A connection that breaks while the client is checked out reports here. */
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: "error", listener: (error: Error) => void): unknown;
}

/** A pool of connections. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
}
