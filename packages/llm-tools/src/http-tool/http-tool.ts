import type { JsonSchema, Tool } from "@routekit/llm/tool";
import { callEndpoint } from "./call-endpoint.js";
import { type HttpToolOptions, resolveHttpToolOptions } from "./http-tool-options.js";

/** What an httpTool shows when serialised: templates only, never an expanded header value. */
export interface HttpToolDescription {
  name: string;
  description: string;
  source: "http";
  inputSchema: JsonSchema;
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  query: readonly string[];
  body: string;
  resultMode: string;
  timeoutMs: number;
}

/** A REST endpoint as a native tool. */
export type HttpTool = Tool & { readonly source: "http"; toJSON(): HttpToolDescription };

/**
 * Turns a REST endpoint into a tool (toolnexus §7). `{placeholder}` URL segments are filled from
 * the arguments (path-escaped) and removed from them; on GET and HEAD the other arguments form the
 * query string, elsewhere the names in `query` do and the rest form the body (json, form or raw:
 * raw sends the one remaining string argument as is). `${ENV}` in header values is expanded at
 * call time and never appears in output, errors or serialisation. `execute` never throws:
 * non-2xx is `HTTP <status>: <body>` with isError; timeouts say "deadline exceeded".
 * The URL is the developer's and is trusted (no SSRF address guard; pass a guarded dispatcher
 * to add one); values from the model only ever fill escaped path or query parts.
 * Invalid options throw TOOL_OPTION_INVALID naming the option.
 */
export function httpTool(options: HttpToolOptions): HttpTool {
  const resolved = resolveHttpToolOptions(options);
  const description: HttpToolDescription = {
    name: resolved.name,
    description: resolved.description,
    source: "http",
    inputSchema: resolved.inputSchema,
    method: resolved.method,
    url: resolved.template.text,
    headers: resolved.headers,
    query: resolved.query,
    body: resolved.body,
    resultMode: resolved.resultMode,
    timeoutMs: resolved.timeoutMs,
  };
  return {
    name: resolved.name,
    description: resolved.description,
    inputSchema: resolved.inputSchema,
    source: "http",
    original: description,
    execute: (args, context) => callEndpoint(resolved, args, context),
    toJSON: () => description,
  };
}
