import { type JsonSchema, TOOL_NAME_PATTERN } from "@routekit/llm/tool";
import type { Dispatcher } from "undici";
import { LlmToolsError } from "../errors.js";
import { describe } from "../tool-input.js";
import { parseUrlTemplate, type UrlTemplate } from "./url-template.js";

/** How arguments that are neither placeholders nor query names are sent on non-GET methods. */
export type HttpToolBodyMode = "json" | "form" | "raw";
/** How a 2xx response becomes the tool output. */
export type HttpToolResultMode = "text" | "json" | "status+text";

/** A REST endpoint described as a tool (toolnexus §7). */
export interface HttpToolOptions {
  /** The tool name the model sees: `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** Defaults to "<METHOD> <url>". */
  description?: string;
  /** GET (default), HEAD, POST, PUT, PATCH, DELETE or OPTIONS; case-insensitive. */
  method?: string;
  /** Absolute http(s) URL; `{name}` path or query segments are filled from the arguments. */
  url: string;
  /** Header values may use `${ENV_VAR}`, expanded at call time and never logged or shown. */
  headers?: Readonly<Record<string, string>>;
  /** Arguments sent in the query string on methods other than GET and HEAD. */
  query?: readonly string[];
  /**
   * Body encoding on methods other than GET and HEAD: "json" (default) sends the remaining
   * arguments as a JSON object with sorted keys, "form" URL-encodes them, "raw" sends the one
   * remaining argument, which must be a string, as is (text/plain; no argument = empty body).
   */
  body?: HttpToolBodyMode;
  /** Defaults to an open object schema listing the URL placeholders as required strings. */
  inputSchema?: JsonSchema;
  /** Deadline per call in milliseconds; a call's `context.timeoutMs` overrides it. Default 30000. */
  timeoutMs?: number;
  /**
   * "text" (default): the body. "json": the body re-encoded compactly with `<`, `>`, `&` escaped
   * as Go does (`\u003c`...; an empty body is `null`, a non-JSON body an error result).
   * "status+text": the status, a line break, the body (`200\nhello`). Non-2xx ignores the mode.
   */
  resultMode?: HttpToolResultMode;
  /** Response bytes read; the rest is dropped and `metadata.truncated` set. Default 1 MiB. */
  maxBytes?: number;
  /** The undici dispatcher to send through; by default a shared agent following up to 5 redirects. */
  dispatcher?: Dispatcher;
}

/** HttpToolOptions checked and with defaults applied. */
export interface ResolvedHttpToolOptions {
  readonly name: string;
  readonly description: string;
  readonly method: string;
  readonly template: UrlTemplate;
  readonly headers: Readonly<Record<string, string>>;
  readonly query: readonly string[];
  readonly body: HttpToolBodyMode;
  readonly inputSchema: JsonSchema;
  readonly timeoutMs: number;
  readonly resultMode: HttpToolResultMode;
  readonly maxBytes: number;
  readonly dispatcher: Dispatcher | undefined;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const BODY_MODES: readonly HttpToolBodyMode[] = ["json", "form", "raw"];
const RESULT_MODES: readonly HttpToolResultMode[] = ["text", "json", "status+text"];
const KNOWN = [
  "name",
  "description",
  "method",
  "url",
  "headers",
  "query",
  "body",
  "inputSchema",
  "timeoutMs",
  "resultMode",
  "maxBytes",
  "dispatcher",
];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks httpTool options; every problem throws TOOL_OPTION_INVALID naming the option. */
export function resolveHttpToolOptions(options: HttpToolOptions): ResolvedHttpToolOptions {
  if (typeof options !== "object" || options === null)
    throw invalid("httpTool", "options", "an object", options);
  const { name } = options;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw invalid("httpTool", "name", "a tool name matching ^[a-zA-Z0-9_-]{1,64}$", name);
  }
  const label = `httpTool '${name}'`;
  const unknown = Object.keys(options).find((key) => !KNOWN.includes(key));
  if (unknown !== undefined) {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      name,
      `${label}: unknown option '${unknown}' (expected one of ${KNOWN.join(", ")})`,
    );
  }
  if (typeof options.url !== "string")
    throw invalid(label, "url", "an absolute http or https URL", options.url, name);
  const template = parseUrlTemplate(options.url);
  if (typeof template === "string") {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      name,
      `${label}: option 'url' ${template} (found "${options.url}")`,
    );
  }
  const method =
    typeof options.method === "string" ? options.method.toUpperCase() : (options.method ?? "GET");
  if (typeof method !== "string" || !METHODS.includes(method)) {
    throw invalid(label, "method", `one of ${METHODS.join(", ")}`, options.method, name);
  }
  const query = checkQuery(options.query, template, label, name);
  return {
    name,
    description: checkDescription(options.description, `${method} ${options.url}`, label, name),
    method,
    template,
    headers: checkHeaders(options.headers, label, name),
    query,
    body: oneOf(options.body, BODY_MODES, "json", "body", label, name),
    inputSchema: checkSchema(options.inputSchema, template, label, name),
    timeoutMs: positiveInteger(options.timeoutMs, 30_000, "timeoutMs", "milliseconds", label, name),
    resultMode: oneOf(options.resultMode, RESULT_MODES, "text", "resultMode", label, name),
    maxBytes: positiveInteger(options.maxBytes, 1024 * 1024, "maxBytes", "bytes", label, name),
    dispatcher: checkDispatcher(options.dispatcher, label, name),
  };
}

function invalid(
  label: string,
  option: string,
  expected: string,
  found: unknown,
  name = "httpTool",
): LlmToolsError {
  return new LlmToolsError(
    "TOOL_OPTION_INVALID",
    name,
    `${label}: option '${option}' must be ${expected} (found ${describe(found)})`,
  );
}

function checkDescription(value: unknown, fallback: string, label: string, name: string): string {
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string") throw invalid(label, "description", "a string", value, name);
  return value;
}

function checkHeaders(value: unknown, label: string, name: string): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(label, "headers", "an object of header names to string values", value, name);
  }
  const headers: Record<string, string> = {};
  for (const [header, template] of Object.entries(value)) {
    if (!HEADER_NAME.test(header))
      throw invalid(label, `headers['${header}']`, "a valid header name", header, name);
    if (typeof template !== "string" || /[\r\n\0]/.test(template)) {
      throw invalid(label, `headers['${header}']`, "a string without line breaks", template, name);
    }
    headers[header] = template;
  }
  return headers;
}

function checkQuery(value: unknown, template: UrlTemplate, label: string, name: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "")) {
    throw invalid(label, "query", "an array of argument names", value, name);
  }
  const clash = value.find((item: string) => template.placeholders.includes(item));
  if (clash !== undefined) {
    throw invalid(label, "query", "names that are not URL placeholders", `${clash}`, name);
  }
  return [...value];
}

function checkSchema(value: unknown, template: UrlTemplate, label: string, name: string): JsonSchema {
  if (value === undefined) {
    const properties = Object.fromEntries(
      template.placeholders.map((placeholder) => [
        placeholder,
        { type: "string", description: `Fills {${placeholder}} in the URL.` },
      ]),
    );
    return { type: "object", properties, required: [...template.placeholders], additionalProperties: true };
  }
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    Reflect.get(value, "type") !== "object"
  ) {
    throw invalid(label, "inputSchema", 'a JSON Schema object with type "object"', value, name);
  }
  return value as JsonSchema;
}

function oneOf<TValue extends string>(
  value: unknown,
  allowed: readonly TValue[],
  fallback: TValue,
  option: string,
  label: string,
  name: string,
): TValue {
  if (value === undefined) return fallback;
  const match = allowed.find((item) => item === value);
  if (match === undefined)
    throw invalid(label, option, `one of ${allowed.map((item) => `"${item}"`).join(", ")}`, value, name);
  return match;
}

function positiveInteger(
  value: unknown,
  fallback: number,
  option: string,
  unit: string,
  label: string,
  name: string,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(label, option, `a whole number of ${unit} >= 1`, value, name);
  }
  return value;
}

function checkDispatcher(value: unknown, label: string, name: string): Dispatcher | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || typeof Reflect.get(value, "dispatch") !== "function") {
    throw invalid(label, "dispatcher", "an undici Dispatcher", value, name);
  }
  return value as Dispatcher;
}
