import { truncateForMessage } from "@routekit/core/internal";
import type { HttpToolBodyMode } from "./http-tool-options.js";

/** What goes on the wire for one call, apart from the headers. */
export interface RequestParts {
  url: string;
  body?: string;
  /** The content type of `body` for its mode; the tool's own content-type header wins. */
  contentType?: string;
}

/** How the arguments left after placeholders are routed. */
export interface ArgumentRouting {
  /** Methods whose leftover arguments all go to the query string (GET and HEAD). */
  readonly queryOnly: boolean;
  /** Arguments sent in the query string on other methods. */
  readonly queryNames: ReadonlySet<string>;
  readonly bodyMode: HttpToolBodyMode;
}

const CONTENT_TYPES: Record<HttpToolBodyMode, string> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  raw: "text/plain; charset=utf-8",
};

/**
 * Routes the arguments that did not fill a placeholder: on GET and HEAD all of them form the
 * query string, elsewhere only the names in `query` do and the rest form the body.
 * Query and form pairs are sorted by key. Returns the parts, or a description of the problem.
 */
export function buildRequestParts(
  filledUrl: string,
  leftover: ReadonlyMap<string, unknown>,
  routing: ArgumentRouting,
): RequestParts | string {
  const queryArgs = new Map<string, unknown>();
  const bodyArgs = new Map<string, unknown>();
  for (const [name, value] of leftover) {
    if (routing.queryOnly || routing.queryNames.has(name)) queryArgs.set(name, value);
    else bodyArgs.set(name, value);
  }
  const override = fixedParameterOverride(filledUrl, queryArgs);
  if (override !== undefined) return override;
  const query = encodePairs(queryArgs);
  const url = query === "" ? filledUrl : `${filledUrl}${filledUrl.includes("?") ? "&" : "?"}${query}`;
  if (routing.queryOnly) return { url };
  const body = encodeBody(bodyArgs, routing.bodyMode);
  if (typeof body !== "string") return body.problem;
  return { url, body, contentType: CONTENT_TYPES[routing.bodyMode] };
}

function encodeBody(
  args: ReadonlyMap<string, unknown>,
  mode: HttpToolBodyMode,
): string | { problem: string } {
  if (mode === "form") return encodePairs(args);
  if (mode === "json") return JSON.stringify(Object.fromEntries(sortedEntries(args)));
  const entries = [...args];
  if (entries.length === 0) return "";
  const [first] = entries;
  if (entries.length > 1 || first === undefined) {
    return {
      problem:
        `body 'raw' sends exactly one argument as the body, found ${entries.length} ` +
        `(${truncateForMessage(entries.map(([name]) => name).join(", "))})`,
    };
  }
  const [name, value] = first;
  if (typeof value !== "string")
    return {
      problem: `body 'raw' sends argument '${truncateForMessage(name)}' as is, so it must be a string`,
    };
  return value;
}

/** URL-encodes pairs sorted by key; arrays repeat the key, objects are sent as JSON text, null is skipped. */
function encodePairs(args: ReadonlyMap<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of sortedEntries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
  }
  return params.toString();
}

function sortedEntries(args: ReadonlyMap<string, unknown>): [string, unknown][] {
  return [...args].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}

/**
 * The problem when an argument bound for the query string has the name of a query parameter the
 * URL template fixes (compared case-insensitively, as some servers do): the template's value wins,
 * so such an argument is refused rather than sent beside it (where a server might read it instead).
 */
function fixedParameterOverride(
  filledUrl: string,
  queryArgs: ReadonlyMap<string, unknown>,
): string | undefined {
  if (queryArgs.size === 0) return undefined;
  const fixed = new Set([...new URL(filledUrl).searchParams.keys()].map((name) => name.toLowerCase()));
  if (fixed.size === 0) return undefined;
  for (const name of queryArgs.keys()) {
    if (fixed.has(name.toLowerCase())) {
      return (
        `argument '${truncateForMessage(name)}' would override the query parameter the tool's URL fixes; ` +
        "leave it out (the URL's own value is always sent)"
      );
    }
  }
  return undefined;
}
