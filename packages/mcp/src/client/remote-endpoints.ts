import type { Endpoint, Exchange } from "@routekit/core";
import { truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { argumentsOf } from "./arguments-of.js";
import type { McpConnection } from "./connection.js";

/** The MIME type of the resource `mcp:SERVER/resource/URI` read (of its first part). */
export const MCP_RESOURCE_MIME_TYPE_HEADER = "mcp.resource.mimeType";
/** The description of the prompt `mcp:SERVER/prompt/NAME` got, when the server gave one. */
export const MCP_PROMPT_DESCRIPTION_HEADER = "mcp.prompt.description";

/**
 * `mcp:SERVER/resource/URI` — reads the server's resource URI (`resources/read`; a template's URI
 * with its values filled in, e.g. `orders://A-17`). Body out = the content: text as a string,
 * binary (`blob`) as a Buffer, a list of them when the server sent several parts; the MIME type in
 * the header `mcp.resource.mimeType`. The body in is not used.
 */
export function resourceEndpoint(
  connection: McpConnection,
  uri: string,
  resourceUri: string,
  timeoutMs: number | undefined,
): Endpoint {
  if (resourceUri === "") {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `Endpoint '${uri}': expected mcp:SERVER/resource/URI, e.g. mcp:docs/resource/docs://returns-policy`,
    );
  }
  return {
    uri,
    async send(exchange: Exchange) {
      const result = await connection.readResource(resourceUri, requestOptions(exchange, timeoutMs));
      const parts = result.contents.map((part) =>
        typeof part.blob === "string" ? Buffer.from(part.blob, "base64") : (part.text ?? ""),
      );
      const mimeType = result.contents[0]?.mimeType;
      if (mimeType !== undefined) exchange.headers[MCP_RESOURCE_MIME_TYPE_HEADER] = mimeType;
      exchange.body = parts.length === 1 ? parts[0] : parts;
    },
  };
}

/**
 * `mcp:SERVER/prompt/NAME` — gets the server's prompt NAME (`prompts/get`). Body in = its arguments
 * (an object of strings, numbers or booleans, or JSON text of one); body out = the prompt's
 * messages as the server sent them (`{ role, content }` each); its description in the header
 * `mcp.prompt.description`.
 */
export function promptEndpoint(
  connection: McpConnection,
  uri: string,
  promptName: string,
  timeoutMs: number | undefined,
): Endpoint {
  if (promptName === "" || promptName.includes("/")) {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `Endpoint '${uri}': expected mcp:SERVER/prompt/NAME, e.g. mcp:docs/prompt/summarize`,
    );
  }
  return {
    uri,
    async send(exchange: Exchange) {
      const args = promptArguments(argumentsOf(exchange.body, uri), uri);
      const result = await connection.getPrompt(promptName, args, requestOptions(exchange, timeoutMs));
      if (result.description !== undefined)
        exchange.headers[MCP_PROMPT_DESCRIPTION_HEADER] = result.description;
      exchange.body = result.messages;
    },
  };
}

/** Prompt arguments are strings in MCP: numbers and booleans are written as text, others refused. */
function promptArguments(given: Record<string, unknown>, uri: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === "string") args[key] = value;
    else if (typeof value === "number" || typeof value === "boolean") args[key] = String(value);
    else {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `Endpoint '${uri}': prompt argument '${truncateForMessage(key)}' must be a string, number or boolean (found ${value === null ? "null" : typeof value})`,
      );
    }
  }
  return args;
}

function requestOptions(exchange: Exchange, timeoutMs: number | undefined) {
  return { signal: exchange.signal, ...(timeoutMs === undefined ? undefined : { timeoutMs }) };
}
