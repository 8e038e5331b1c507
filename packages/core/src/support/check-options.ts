import { describeValue } from "./describe-value.js";
import { didYouMean } from "./did-you-mean.js";

/**
 * Declarative checks of an options object a user passes in code (`amqpComponent({ ... })`,
 * `httpTool({ ... })`): each option's kind, range and default in one table, checked by
 * `checkOptions`, which names the place, the option (with its path inside nested objects), what
 * was expected and what was found, and refuses unknown options with the nearest known name.
 * Endpoint URI queries have their own schema (`OptionSchema`), whose values arrive as text.
 */

interface CheckBase {
  /** Must be given (no default applies). */
  readonly required?: boolean;
  /** A credential: a message names only the kind of a wrong value, never the value. */
  readonly secret?: boolean;
}

/** One option's check. */
export type OptionCheck =
  | (CheckBase & {
      readonly type: "string";
      readonly default?: string;
      /** The value must match this; `expected` then says what it means. */
      readonly pattern?: RegExp;
      readonly expected?: string;
      /** Refuses "" (default false). */
      readonly nonEmpty?: boolean;
    })
  | (CheckBase & {
      readonly type: "integer" | "number";
      readonly default?: number;
      readonly min?: number;
      readonly max?: number;
      /** Named in the message: "a whole number of milliseconds >= 1". */
      readonly unit?: string;
      /** Accepts `Infinity` besides the range (default false). */
      readonly infinity?: boolean;
    })
  | (CheckBase & { readonly type: "boolean"; readonly default?: boolean })
  | (CheckBase & {
      readonly type: "enum";
      readonly values: readonly string[];
      readonly default?: string;
    })
  | (CheckBase & {
      readonly type: "function";
      /** What the function is, for the message; default "a function". */
      readonly expected?: string;
    })
  | (CheckBase & {
      readonly type: "uri";
      /** Accepted schemes without the colon: ["http", "https"]. */
      readonly schemes: readonly string[];
      readonly default?: string;
    })
  | (CheckBase & { readonly type: "object"; readonly options: OptionChecks })
  | (CheckBase & {
      readonly type: "list";
      readonly items: OptionCheck;
      /** What the whole list is, for the message; default "an array of <items>". */
      readonly expected?: string;
    })
  | (CheckBase & {
      readonly type: "record";
      readonly values: OptionCheck;
      /** What the whole object is, for the message; default "an object of <values>". */
      readonly expected?: string;
    })
  | (CheckBase & {
      readonly type: "custom";
      /** What a valid value is, for the message: "an undici Dispatcher". */
      readonly expected: string;
      readonly check: (value: unknown) => boolean;
    });

/** The checks of every option an object accepts, by name. */
export type OptionChecks = { readonly [name: string]: OptionCheck };

type CheckedValue<TCheck> = TCheck extends { type: "string" | "uri" }
  ? string
  : TCheck extends { type: "integer" | "number" }
    ? number
    : TCheck extends { type: "boolean" }
      ? boolean
      : TCheck extends { type: "enum"; values: readonly (infer TValue)[] }
        ? TValue
        : TCheck extends { type: "object"; options: infer TChecks extends OptionChecks }
          ? CheckedOptions<TChecks>
          : TCheck extends { type: "list"; items: infer TItem }
            ? CheckedValue<TItem>[]
            : TCheck extends { type: "record"; values: infer TItem }
              ? Record<string, CheckedValue<TItem>>
              : unknown;

/**
 * The checked options of a table: options with a default or required are always present. A
 * table whose names are not known to the compiler (built at run time) gives a plain record.
 */
export type CheckedOptions<TChecks extends OptionChecks> = string extends keyof TChecks
  ? Record<string, unknown>
  : {
      -readonly [K in keyof TChecks]: TChecks[K] extends { default: unknown } | { required: true }
        ? CheckedValue<TChecks[K]>
        : CheckedValue<TChecks[K]> | undefined;
    };

/** Where the options are, and how a problem becomes the package's own error. */
export interface OptionsSite {
  /** The place, first in every message: "httpTool 'weather'", "amqp component". */
  readonly where: string;
  /** The package's error of a message; `option` is the option's path (`headers['x']`, `tls.ca`). */
  readonly error: (message: string, option: string) => Error;
}

/**
 * Checks `value` against `checks`: throws the site's error at the first problem, else returns
 * the options with defaults applied. Extra checks that relate options to each other stay in the
 * caller, after this one.
 */
export function checkOptions<TChecks extends OptionChecks>(
  checks: TChecks,
  value: unknown,
  site: OptionsSite,
): CheckedOptions<TChecks> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw site.error(`${site.where}: options must be an object (found ${describeValue(value)})`, "");
  }
  return checkObject(checks, value as Record<string, unknown>, site, "") as CheckedOptions<TChecks>;
}

/** "option 'x' must be <expected> (found <value>)" at `where`, as the site's error. */
export function optionError(site: OptionsSite, path: string, expected: string, found: unknown): Error {
  const shown = found instanceof Secret ? `${kindOf(found.value)} (not shown)` : describeValue(found);
  return site.error(`${site.where}: option '${path}' must be ${expected} (found ${shown})`, path);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function checkObject(
  checks: OptionChecks,
  value: Record<string, unknown>,
  site: OptionsSite,
  prefix: string,
): Record<string, unknown> {
  const known = Object.keys(checks);
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(checks, key)) continue;
    const hint = didYouMean(key, known, { quoted: true });
    const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key;
    throw site.error(
      `${site.where}: unknown option '${prefix}${shown}'${hint} (expected one of ${known.join(", ")})`,
      `${prefix}${shown}`,
    );
  }
  const checked: Record<string, unknown> = {};
  for (const key of known) {
    const result = checkValue(checks[key] as OptionCheck, value[key], site, `${prefix}${key}`);
    if (result !== undefined) checked[key] = result;
  }
  return checked;
}

function checkValue(check: OptionCheck, value: unknown, site: OptionsSite, path: string): unknown {
  if (value === undefined) {
    if (check.required === true) throw optionError(site, path, `given: ${expectedOf(check)}`, value);
    return "default" in check ? check.default : undefined;
  }
  switch (check.type) {
    case "object":
      if (typeof value !== "object" || value === null || Array.isArray(value)) break;
      return checkObject(check.options, value as Record<string, unknown>, site, `${path}.`);
    case "list":
      if (!Array.isArray(value)) break;
      return value.map((item, index) => checkValue(check.items, item, site, `${path}[${index}]`));
    case "record":
      if (typeof value !== "object" || value === null || Array.isArray(value)) break;
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          checkValue(check.values, item, site, `${path}['${key}']`),
        ]),
      );
    default:
      if (accepts(check, value)) return value;
  }
  throw optionError(site, path, expectedOf(check), check.secret === true ? new Secret(value) : value);
}

/** A wrong credential, whose kind only is shown. */
class Secret {
  constructor(readonly value: unknown) {}
}

function accepts(check: OptionCheck, value: unknown): boolean {
  switch (check.type) {
    case "string":
      return (
        typeof value === "string" &&
        (check.nonEmpty !== true || value !== "") &&
        (check.pattern === undefined || check.pattern.test(value))
      );
    case "integer":
    case "number":
      return acceptsNumber(check, value);
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && check.values.includes(value);
    case "function":
      return typeof value === "function";
    case "uri":
      return typeof value === "string" && acceptsUri(check.schemes, value);
    case "custom":
      return check.check(value);
    default:
      return false;
  }
}

function acceptsNumber(check: Extract<OptionCheck, { type: "integer" | "number" }>, value: unknown): boolean {
  if (typeof value !== "number" || Number.isNaN(value)) return false;
  if (value === Number.POSITIVE_INFINITY) return check.infinity === true;
  if (check.type === "integer" ? !Number.isSafeInteger(value) : !Number.isFinite(value)) return false;
  return (check.min === undefined || value >= check.min) && (check.max === undefined || value <= check.max);
}

function acceptsUri(schemes: readonly string[], value: string): boolean {
  if (!URL.canParse(value)) return false;
  return schemes.includes(new URL(value).protocol.slice(0, -1));
}

/** What a check accepts, as the message says it: "a whole number of milliseconds from 1 to 10". */
export function expectedOf(check: OptionCheck): string {
  switch (check.type) {
    case "string":
      return check.expected ?? (check.nonEmpty === true ? "a non-empty string" : "a string");
    case "integer":
    case "number":
      return expectedNumber(check);
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${check.values.map((item) => `"${item}"`).join(", ")}`;
    case "function":
      return check.expected ?? "a function";
    case "uri":
      return `an absolute ${check.schemes.join(" or ")} URI`;
    case "object":
      return `an object with options ${Object.keys(check.options).join(", ")}`;
    case "list":
      return check.expected ?? `an array of ${plural(expectedOf(check.items))}`;
    case "record":
      return check.expected ?? `an object of ${plural(expectedOf(check.values))}`;
    case "custom":
      return check.expected;
  }
}

function expectedNumber(check: Extract<OptionCheck, { type: "integer" | "number" }>): string {
  const kind = check.type === "integer" ? "a whole number" : "a number";
  const noun = check.unit === undefined ? kind : `${kind} of ${check.unit}`;
  const range =
    check.min !== undefined && check.max !== undefined
      ? ` from ${check.min} to ${check.max}`
      : check.min !== undefined
        ? ` >= ${check.min}`
        : check.max !== undefined
          ? ` <= ${check.max}`
          : "";
  return `${noun}${range}${check.infinity === true ? " or Infinity" : ""}`;
}

/** "a string" -> "strings"; anything else is kept as it is, in parentheses. */
function plural(expected: string): string {
  const simple = /^an? (\w+)$/.exec(expected);
  return simple === null ? `(${expected})` : `${simple[1]}s`;
}
