import { RoutekitError } from "../errors/errors.js";
import { truncateForMessage } from "./truncate-for-message.js";

/** An endpoint a dynamic send (toD, recipientList) resolved, as an `allowedEndpoints` predicate sees it. */
export interface DynamicEndpointTarget {
  /** The whole URI, as built. */
  readonly uri: string;
  /** Before the first `:`. */
  readonly scheme: string;
  /** Between the `:` and the `?`. */
  readonly path: string;
  /** The options after the `?`, decoded as the component reads them. */
  readonly options: ReadonlyMap<string, string>;
}

/**
 * Which endpoints a dynamic send may resolve: a list of patterns, or a predicate.
 *
 * A pattern is `scheme:path` or `scheme:path?options`. In `scheme:path`, `*` matches any run of
 * characters (`seda:*`, `http://api.example/*`). Options are matched by name, never as text:
 * - no `?`: the URI may carry no options;
 * - `?*`: any options;
 * - `?name=value&other=*`: only the options listed, each with a value matching its glob (`*` any).
 */
export type AllowedEndpoints = readonly string[] | ((target: DynamicEndpointTarget) => boolean);

/** Checks a resolved URI; throws `ENDPOINT_NOT_ALLOWED` when it is refused. */
export type EndpointCheck = (uri: string, where: string) => void;

interface EndpointPattern {
  readonly text: string;
  readonly base: string;
  /** "none": no options; "any": any options; else the allowed option names with their value globs. */
  readonly options: "none" | "any" | ReadonlyMap<string, string>;
}

/**
 * Validates an `allowedEndpoints` value (`source` names where it was given, for messages) and
 * returns the check that every URI a dynamic send resolves goes through before any endpoint
 * for it is made.
 */
export function compileAllowedEndpoints(value: unknown, source: string): EndpointCheck {
  if (typeof value === "function") {
    const allows = value as (target: DynamicEndpointTarget) => boolean;
    return (uri, where) => {
      if (allows(targetOf(uri)) !== true) throw refused(uri, where, source, "the predicate returned false");
    };
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${source} must be a non-empty array of endpoint patterns such as "seda:*" or a function (endpoint) => boolean (found ${describe(value)})`,
    );
  }
  const patterns = value.map((item, index) => parsePattern(item, `${source}[${index}]`));
  const listed = truncateForMessage(patterns.map((pattern) => pattern.text).join(", "), 300);
  return (uri, where) => {
    const target = targetOf(uri);
    if (!patterns.some((pattern) => matches(pattern, target)))
      throw refused(uri, where, source, `it matches none of [${listed}]`);
  };
}

function parsePattern(item: unknown, where: string): EndpointPattern {
  if (typeof item !== "string" || !/^[a-zA-Z*][a-zA-Z0-9+.*-]*:/.test(item)) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${where} must be an endpoint pattern 'scheme:path' or 'scheme:path?options' such as "seda:*" (found ${describe(item)})`,
    );
  }
  const question = item.indexOf("?");
  if (question === -1) return { text: item, base: item, options: "none" };
  const base = item.slice(0, question);
  const optionText = item.slice(question + 1);
  if (optionText === "*") return { text: item, base, options: "any" };
  const options = new Map<string, string>();
  for (const part of optionText.split("&")) {
    const equals = part.indexOf("=");
    const name = equals === -1 ? part : part.slice(0, equals);
    if (name === "" || name.includes("*")) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${where}: option patterns are '?*' or 'name=value&name=*' with literal names (found '${truncateForMessage(item)}')`,
      );
    }
    options.set(name, equals === -1 ? "" : part.slice(equals + 1));
  }
  return { text: item, base, options };
}

/** The parts of `uri` as components read them (options decoded, `+` as a space). */
function targetOf(uri: string): DynamicEndpointTarget {
  const colon = uri.indexOf(":");
  const question = uri.indexOf("?");
  const end = question === -1 ? uri.length : question;
  const options = new Map<string, string>();
  if (question !== -1) {
    for (const part of uri.slice(question + 1).split("&")) {
      if (part === "") continue;
      const equals = part.indexOf("=");
      options.set(
        decode(equals === -1 ? part : part.slice(0, equals)),
        equals === -1 ? "" : decode(part.slice(equals + 1)),
      );
    }
  }
  return {
    uri,
    scheme: colon === -1 || colon > end ? "" : uri.slice(0, colon),
    path: colon === -1 || colon > end ? uri.slice(0, end) : uri.slice(colon + 1, end),
    options,
  };
}

function matches(pattern: EndpointPattern, target: DynamicEndpointTarget): boolean {
  const question = target.uri.indexOf("?");
  if (!globMatches(pattern.base, question === -1 ? target.uri : target.uri.slice(0, question))) return false;
  if (pattern.options === "any") return true;
  if (pattern.options === "none") return target.options.size === 0;
  for (const [name, value] of target.options) {
    const glob = pattern.options.get(name);
    if (glob === undefined || !globMatches(glob, value)) return false;
  }
  return true;
}

/**
 * Whether `text` matches `glob`, whose `*` matches any run of characters. Greedy with one
 * backtrack point: at most (glob length × text length) steps, never exponential.
 */
function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && glob[g] !== "*" && glob[g] === text[t]) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === "*") {
      star = g++;
      resume = t;
    } else if (star !== -1) {
      g = star + 1;
      t = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function refused(uri: string, where: string, source: string, reason: string): RoutekitError {
  const question = uri.indexOf("?");
  const shown = truncateForMessage(question === -1 ? uri : `${uri.slice(0, question)}?…`);
  const names =
    question === -1
      ? ""
      : ` (options: ${truncateForMessage([...targetOf(uri).options.keys()].join(", "), 200)})`;
  return new RoutekitError(
    "ENDPOINT_NOT_ALLOWED",
    `${where}: endpoint '${shown}'${names} is not allowed by ${source}: ${reason}`,
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(truncateForMessage(value, 60));
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return value === null ? "null" : typeof value;
}
