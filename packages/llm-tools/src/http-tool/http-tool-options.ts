import { checkOptions, type OptionChecks, optionError } from "@routekit/core/internal";
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
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const CHECKS = {
  name: { type: "string", required: true },
  description: { type: "string" },
  method: { type: "enum", values: METHODS, default: "GET" },
  url: { type: "string", required: true, expected: "an absolute http or https URL" },
  headers: {
    type: "record",
    values: { type: "string", pattern: /^[^\r\n\0]*$/, expected: "a string without line breaks" },
  },
  query: {
    type: "list",
    items: { type: "string", nonEmpty: true, expected: "an argument name" },
    expected: "an array of argument names",
  },
  body: { type: "enum", values: ["json", "form", "raw"], default: "json" },
  inputSchema: {
    type: "custom",
    expected: 'a JSON Schema object with type "object"',
    check: (value) => typeof value === "object" && value !== null && Reflect.get(value, "type") === "object",
  },
  timeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 30_000 },
  resultMode: { type: "enum", values: ["text", "json", "status+text"], default: "text" },
  maxBytes: { type: "integer", min: 1, unit: "bytes", default: 1024 * 1024 },
  dispatcher: {
    type: "custom",
    expected: "an undici Dispatcher",
    check: (value) =>
      typeof value === "object" && value !== null && typeof Reflect.get(value, "dispatch") === "function",
  },
} as const satisfies OptionChecks;

/** Checks httpTool options; every problem throws TOOL_OPTION_INVALID naming the option. */
export function resolveHttpToolOptions(options: HttpToolOptions): ResolvedHttpToolOptions {
  if (typeof options !== "object" || options === null)
    throw invalid("httpTool", "options", "an object", options);
  const { name } = options;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw invalid("httpTool", "name", "a tool name matching ^[a-zA-Z0-9_-]{1,64}$", name);
  }
  const label = `httpTool '${name}'`;
  const site = {
    where: label,
    error: (message: string) => new LlmToolsError("TOOL_OPTION_INVALID", name, message),
  };
  const method = typeof options.method === "string" ? options.method.toUpperCase() : options.method;
  const checked = checkOptions(CHECKS, { ...options, method }, site);
  const template = parseUrlTemplate(checked.url);
  if (typeof template === "string") {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      name,
      `${label}: option 'url' ${template} (found "${options.url}")`,
    );
  }
  for (const header of Object.keys(checked.headers ?? {})) {
    if (!HEADER_NAME.test(header))
      throw optionError(site, `headers['${header}']`, "a valid header name", header);
  }
  const query = checked.query ?? [];
  const clash = query.find((item) => template.placeholders.includes(item));
  if (clash !== undefined) throw optionError(site, "query", "names that are not URL placeholders", clash);
  return {
    ...checked,
    description: checked.description || `${checked.method} ${options.url}`,
    template,
    headers: checked.headers ?? {},
    query,
    inputSchema: (checked.inputSchema as JsonSchema | undefined) ?? defaultSchema(template),
    dispatcher: checked.dispatcher as Dispatcher | undefined,
  };
}

function invalid(label: string, option: string, expected: string, found: unknown): LlmToolsError {
  return new LlmToolsError(
    "TOOL_OPTION_INVALID",
    "httpTool",
    `${label}: option '${option}' must be ${expected} (found ${describe(found)})`,
  );
}

/** An open object schema listing the URL placeholders as required strings. */
function defaultSchema(template: UrlTemplate): JsonSchema {
  const properties = Object.fromEntries(
    template.placeholders.map((placeholder) => [
      placeholder,
      { type: "string", description: `Fills {${placeholder}} in the URL.` },
    ]),
  );
  return { type: "object", properties, required: [...template.placeholders], additionalProperties: true };
}
