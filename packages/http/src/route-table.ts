import { HttpError } from "./http-error.js";

/** What a route registers on the shared server. */
export interface HttpRouteEntry<THandler> {
  readonly routeId: string;
  /** Upper-case methods the route accepts; empty = every method. */
  readonly methods: readonly string[];
  readonly handler: THandler;
}

/** The outcome of looking a request up. */
export type RouteMatch<THandler> =
  | { kind: "found"; entry: HttpRouteEntry<THandler>; parameters: Record<string, string> }
  | { kind: "method-not-allowed"; allow: readonly string[] }
  | { kind: "not-found" };

interface PathPattern<THandler> {
  readonly path: string;
  /** Literal segments as text, template segments `{name}` as `{ name }`. */
  readonly segments: ReadonlyArray<string | { name: string }>;
  /** How many literal segments it has: the most specific pattern wins. */
  readonly score: number;
  readonly entries: HttpRouteEntry<THandler>[];
}

const NO_PARAMETERS: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

const TEMPLATE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Splits `/orders/{id}` into its segments; fails on a path without '/' or a malformed template. */
export function parsePath(path: string, uri: string): Array<string | { name: string }> {
  if (!path.startsWith("/")) {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `Endpoint '${uri}': the server path must start with '/', e.g. 'http:/orders' (found '${path}')`,
    );
  }
  return splitPath(path).map((segment) => {
    const match = TEMPLATE.exec(segment);
    if (match !== null) return { name: match[1]! };
    if (segment.includes("{") || segment.includes("}")) {
      throw new HttpError(
        "HTTP_OPTION_INVALID",
        `Endpoint '${uri}': path segment '${segment}' is not a template like '{id}' (letters, digits, '_')`,
      );
    }
    return segment;
  });
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/**
 * The server's routes by path and method. Literal paths win over templates; a path with routes
 * but none for the method gives 405 with the allowed methods.
 */
export class RouteTable<THandler> {
  readonly #patterns = new Map<string, PathPattern<THandler>>();
  /** Patterns without templates by their segments joined with '/': one lookup, no scan. */
  readonly #literals = new Map<string, PathPattern<THandler>>();

  /** Registers a route; the same path and method twice is an error naming both routes. */
  add(path: string, uri: string, entry: HttpRouteEntry<THandler>): void {
    const segments = parsePath(path, uri);
    const key = segments.map((segment) => (typeof segment === "string" ? segment : "{}")).join("/");
    let pattern = this.#patterns.get(key);
    if (pattern === undefined) {
      const score = segments.filter((segment) => typeof segment === "string").length;
      pattern = { path, segments, score, entries: [] };
      this.#patterns.set(key, pattern);
      if (score === segments.length) this.#literals.set(key, pattern);
    }
    for (const existing of pattern.entries) {
      const shared = overlap(existing.methods, entry.methods);
      if (shared !== undefined) throw conflict(entry.routeId, existing.routeId, path, shared);
    }
    pattern.entries.push(entry);
  }

  /** Removes the route's registration (no-op when it has none). */
  remove(routeId: string): void {
    for (const [key, pattern] of this.#patterns) {
      const index = pattern.entries.findIndex((entry) => entry.routeId === routeId);
      if (index !== -1) pattern.entries.splice(index, 1);
      if (pattern.entries.length === 0) {
        this.#patterns.delete(key);
        this.#literals.delete(key);
      }
    }
  }

  /**
   * The route for a plain request path (`/a/b`: no escapes, no empty or dot segments, as
   * handle-request's plain-path test allows) when a literal pattern serves it: one lookup, no
   * split. Undefined when none does; the caller then splits and calls `match`.
   */
  matchPlain(method: string, path: string): RouteMatch<THandler> | undefined {
    const end = path.length > 1 && path.endsWith("/") ? path.length - 1 : path.length;
    const literal = this.#literals.get(path.slice(1, end));
    return literal === undefined ? undefined : this.#choose(literal, NO_PARAMETERS, method);
  }

  /** Finds the route for a request path (already percent-decoded per segment) and method. */
  match(method: string, segments: readonly string[]): RouteMatch<THandler> {
    // A literal pattern matching every segment is the most specific there can be.
    // (Checked again segment by segment: a decoded segment may itself contain '/'.)
    const literal = this.#literals.get(segments.join("/"));
    if (literal !== undefined && matches(literal.segments, segments))
      return this.#choose(literal, NO_PARAMETERS, method);
    let best: PathPattern<THandler> | undefined;
    for (const pattern of this.#patterns.values()) {
      if ((best === undefined || pattern.score > best.score) && matches(pattern.segments, segments))
        best = pattern;
    }
    if (best === undefined) return { kind: "not-found" };
    return this.#choose(best, parametersOf(best.segments, segments), method);
  }

  #choose(
    pattern: PathPattern<THandler>,
    parameters: Record<string, string>,
    method: string,
  ): RouteMatch<THandler> {
    for (const candidate of pattern.entries) {
      if (candidate.methods.length === 0 || candidate.methods.includes(method))
        return { kind: "found", entry: candidate, parameters };
    }
    return { kind: "method-not-allowed", allow: pattern.entries.flatMap((candidate) => candidate.methods) };
  }
}

function matches(pattern: ReadonlyArray<string | { name: string }>, segments: readonly string[]): boolean {
  if (pattern.length !== segments.length) return false;
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index]!;
    if (typeof expected === "string" && expected !== segments[index]) return false;
  }
  return true;
}

function parametersOf(
  pattern: ReadonlyArray<string | { name: string }>,
  segments: readonly string[],
): Record<string, string> {
  const parameters: Record<string, string> = Object.create(null);
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index]!;
    if (typeof expected !== "string") parameters[expected.name] = segments[index]!;
  }
  return parameters;
}

/** The methods two registrations share, as text; undefined when they are disjoint. */
function overlap(first: readonly string[], second: readonly string[]): string | undefined {
  if (first.length === 0 && second.length === 0) return "every method";
  if (first.length === 0) return second.join(", ");
  if (second.length === 0) return first.join(", ");
  const shared = second.filter((method) => first.includes(method));
  return shared.length === 0 ? undefined : shared.join(", ");
}

function conflict(routeId: string, other: string, path: string, methods: string): HttpError {
  return new HttpError(
    "HTTP_ROUTE_CONFLICT",
    `Route '${routeId}' cannot serve ${methods} ${path}: route '${other}' already does (restrict the methods with httpMethodRestrict)`,
  );
}

/** Splits a request path into percent-decoded segments; undefined when an escape is malformed. */
export function requestSegments(path: string): string[] | undefined {
  const segments = splitPath(path);
  // Most paths have nothing to decode.
  if (!path.includes("%")) return segments;
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
