/** A value `JSON.stringify` writes as it is. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What `context.describe()` returns: every route as plain, JSON-serialisable data — its steps with
 * their options, nested blocks, endpoints, aspects (such as a tool's schemas) and live counters —
 * and the edges between routes. What a dev console, a tool list or generated docs read.
 *
 * In options, an expression is its source text; a function is `{ kind: "function", name }`; an
 * error class is `{ kind: "errorClass", name }`; any other object that is not plain data (a
 * repository, say) is `{ kind: "object", name }`. Credentials read `[redacted]`: options named
 * like one (password, token, apiKey, secret, ...), the value a `setHeader` step gives a header
 * named like one (`http.request.header.authorization`), and in any text the user info of a URI
 * (`https://[redacted]@host`) and its parameters named like one (`?api_key=[redacted]`).
 */
export interface ContextDescription {
  readonly name: string;
  readonly state: "created" | "starting" | "started" | "stopping" | "stopped";
  readonly routes: RouteDescription[];
  /** A route sending to an endpoint another route consumes from (`direct:x`, `seda:x`, ...). */
  readonly edges: RouteEdge[];
}

/** One route of `context.describe()`. */
export interface RouteDescription {
  readonly id: string;
  readonly from: string;
  readonly description: string | null;
  readonly state: "stopped" | "started";
  readonly autoStart: boolean;
  readonly steps: StepDescription[];
  /** The route's own `onException` clauses and `errorHandler` (builder-wide ones are not repeated here). */
  readonly errorHandling: ErrorHandlingDescription;
  /** Every endpoint the route names: where it consumes from and where its steps send. */
  readonly endpoints: EndpointUse[];
  /** What the packages that handle the route's aspects describe (e.g. `llmTool`: a tool's name and schemas). */
  readonly aspects: { [name: string]: JsonValue };
  readonly counters: RouteCounters;
}

/** One step: its type, its label and path (as in error messages), its options and nested blocks. */
export interface StepDescription {
  readonly type: string;
  /** The step's label in its block, e.g. `#2 choice`. */
  readonly label: string;
  /** Where the step is in the route, as the compiler names it: `#2 choice when #1 > #1 to(mock:a)`. */
  readonly path: string;
  readonly options: { [name: string]: JsonValue };
  readonly blocks: BlockDescription[];
}

/**
 * A nested block: a choice branch, a split's or loop's body, a doTry's try/catch/finally, a
 * circuit breaker's fallback, or `rest of block` — the steps a step such as `aggregate` or a
 * blockless `filter` takes over.
 */
export interface BlockDescription {
  /** `when #1`, `otherwise`, `steps`, `try`, `catch[0]`, `finally`, `fallback`, `rest of block`. */
  readonly name: string;
  /** The block's label as the compiler names it; its steps' paths start with it. */
  readonly path: string;
  /** What selects the block: a branch's predicate, a catch clause's error classes. */
  readonly options: { [name: string]: JsonValue };
  readonly steps: StepDescription[];
}

/** An endpoint a route names. `step` is the path of the step that names it (null for `from`). */
export interface EndpointUse {
  readonly uri: string;
  readonly direction: "in" | "out";
  readonly step: string | null;
  /** True for a URI template (`toD`) or a recipient list expression: computed per exchange. */
  readonly dynamic: boolean;
}

/** A route's error handling as data. */
export interface ErrorHandlingDescription {
  readonly onException: OnExceptionDescription[];
  readonly errorHandler: { [name: string]: JsonValue } | null;
}

/** One route-local `onException` clause: its options (error classes, redelivery, ...) and its steps. */
export interface OnExceptionDescription {
  /** The clause's label as the compiler names it, e.g. `onException[route 0]`. */
  readonly path: string;
  readonly options: { [name: string]: JsonValue };
  readonly steps: StepDescription[];
}

/** An edge of the route graph: `step` of route `from` sends to `uri`, which route `to` consumes. */
export interface RouteEdge {
  readonly from: string;
  readonly to: string;
  readonly uri: string;
  readonly step: string;
}

/** Live counters of a route. */
export interface RouteCounters {
  /** Exchanges inside the route now. */
  readonly inflight: number;
  /** Exchanges the route finished without an error. */
  readonly completed: number;
  /** Exchanges the route finished with an error. */
  readonly failed: number;
}
