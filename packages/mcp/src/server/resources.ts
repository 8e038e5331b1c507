import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { defineVerb, installVerbs } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { checkedCompleters, type McpCompleter, type McpResourceAspect, verbPlace } from "./catalog.js";
import { type McpResourceContents, toBase64 } from "./content.js";

/** Options of `asMcpResource`. */
export interface AsMcpResourceOptions {
  /** The name clients list (default: the URI). */
  name?: string;
  title?: string;
  description?: string;
  /**
   * The MIME type of the content. Default by reply: "text/plain" for a string, "application/json"
   * for another value (sent as JSON), "application/octet-stream" for bytes.
   */
  mimeType?: string;
  /** Completion of a template's variables (`completion/complete`), by variable name. */
  complete?: Record<string, McpCompleter>;
}

/** The body of a resource route: the URI read and, for a template, its variables. */
export type McpResourceBody = { uri: string } & Record<string, string | string[]>;

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /**
     * Serves this route as the MCP resource `uri` — or, when `uri` has `{variables}` (RFC 6570),
     * as a resource template serving every matching URI. Must follow `from(...)` directly. A read
     * sends the route `{ uri, ...variables }`; its reply is the content: a string is text, a
     * Buffer or Uint8Array binary (with `mimeType`), another value JSON.
     */
    asMcpResource(uri: string, options?: AsMcpResourceOptions): RouteDsl<McpResourceBody>;
  }
}

const MAX_URI_LENGTH = 2048;

installVerbs({
  asMcpResource: defineVerb({
    record: (recorder, uri: string, options: AsMcpResourceOptions = {}) => {
      const where = verbPlace(recorder, "asMcpResource");
      if (typeof uri !== "string" || !/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.length > MAX_URI_LENGTH) {
        throw new RoutekitMcpError(
          "ROUTES_INVALID",
          `${where}: asMcpResource expects an absolute URI of at most ${MAX_URI_LENGTH} characters, like "file:///report" or "orders://{id}" (found ${JSON.stringify(uri)})`,
        );
      }
      if (options === null || typeof options !== "object") {
        throw new RoutekitMcpError(
          "ROUTES_INVALID",
          `${where}: asMcpResource('${uri}') options must be an object`,
        );
      }
      if (recorder.route.aspects.mcpResource !== undefined) {
        throw new RoutekitMcpError("ROUTES_INVALID", `${where}: asMcpResource() is given twice`);
      }
      const template = UriTemplate.isTemplate(uri) ? new UriTemplate(uri) : undefined;
      const aspect: McpResourceAspect = {
        uri,
        name: options.name ?? uri,
        title: options.title,
        description: options.description,
        mimeType: options.mimeType,
        template,
        complete: checkedCompleters(
          options.complete,
          template?.variableNames ?? [],
          `${where}: asMcpResource('${uri}')`,
        ),
      };
      recorder.route.aspects.mcpResource = aspect;
      return undefined;
    },
  }),
});

/** The variables of `uri` when it matches `template`, bounded in length before matching. */
export function matchTemplate(template: UriTemplate, uri: string): Record<string, string | string[]> | null {
  if (uri.length > MAX_URI_LENGTH) return null;
  return template.match(uri);
}

/** A resource route's reply as the contents of `resources/read`. */
export function resourceContents(
  uri: string,
  aspect: McpResourceAspect,
  reply: unknown,
): McpResourceContents {
  if (typeof reply === "string") return { uri, mimeType: aspect.mimeType ?? "text/plain", text: reply };
  if (reply instanceof Uint8Array) {
    return { uri, mimeType: aspect.mimeType ?? "application/octet-stream", blob: toBase64(reply) };
  }
  return { uri, mimeType: aspect.mimeType ?? "application/json", text: JSON.stringify(reply ?? null) };
}
