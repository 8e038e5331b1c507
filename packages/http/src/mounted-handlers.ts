import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteContext } from "@routekit/core";
import { HttpError } from "./http-error.js";
import { httpServerOf } from "./http-server-registry.js";
import { jsonReply, writeReply } from "./write-reply.js";

/** A handler of raw Node requests (another protocol's endpoint) on the context's HTTP server. */
export type MountedHttpHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** Plain path segments only: no templates, escapes, dot segments, query or trailing '/'. */
const MOUNT_PATH = /^(\/[A-Za-z0-9\-_~][A-Za-z0-9\-._~]*)+$/;

/**
 * The handlers mounted on one server by path: a request whose path is the mount path or lies
 * under it (`/mcp`, `/mcp/...`) goes to the handler, before the routes are looked at.
 */
export class MountedHandlers {
  readonly #byPath = new Map<string, MountedHttpHandler>();

  get size(): number {
    return this.#byPath.size;
  }

  /** Mounts `handler` at `path`; returns the function that unmounts it. */
  add(path: string, handler: MountedHttpHandler): () => void {
    if (typeof path !== "string" || !MOUNT_PATH.test(path)) {
      throw new HttpError(
        "HTTP_OPTION_INVALID",
        `mountHttpHandler: the path must be plain segments like '/mcp' (letters, digits, '-', '.', '_', '~'; no '/' at the end, no dot segments) (found ${JSON.stringify(path)})`,
      );
    }
    if (typeof handler !== "function") {
      throw new HttpError(
        "HTTP_OPTION_INVALID",
        `mountHttpHandler: the handler must be a function (request, response) => void (found ${typeof handler})`,
      );
    }
    for (const mounted of this.#byPath.keys()) {
      if (mounted === path || path.startsWith(`${mounted}/`) || mounted.startsWith(`${path}/`)) {
        throw new HttpError(
          "HTTP_ROUTE_CONFLICT",
          `mountHttpHandler: '${path}' overlaps the handler already mounted at '${mounted}'`,
        );
      }
    }
    this.#byPath.set(path, handler);
    return () => {
      if (this.#byPath.get(path) === handler) this.#byPath.delete(path);
    };
  }

  /** The handler of a request target, or undefined when no mount covers its path. */
  find(url: string | undefined): MountedHttpHandler | undefined {
    if (url === undefined) return undefined;
    const end = url.search(/[?#]/);
    const path = end === -1 ? url : url.slice(0, end);
    for (const [mounted, handler] of this.#byPath) {
      if (path === mounted || path.startsWith(`${mounted}/`)) return handler;
    }
    return undefined;
  }
}

/**
 * Runs a mounted handler for one request: 503 while the server stops; a handler that throws gets
 * a 500 (or its connection closed when it had begun to answer), and the error is logged.
 */
export async function runMounted(
  handler: MountedHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
  context: RouteContext,
  stopping: boolean,
): Promise<void> {
  if (stopping) {
    writeReply(response, jsonReply(503, { error: "The server is stopping" }), true);
    return;
  }
  try {
    await handler(request, response);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.logger.error(`http: the handler mounted for ${request.url ?? "?"} failed: ${message}`);
    if (response.headersSent) response.destroy();
    else writeReply(response, jsonReply(500, { error: "Internal Server Error" }), false);
  }
}

/**
 * Mounts a raw request handler on the server `httpPlugin` runs for `context`, at `path` and every
 * path under it, ahead of the `http:` routes — for another protocol's endpoint (an MCP endpoint,
 * say) on the same port. Returns the function that unmounts it. The handler owns its requests:
 * the plugin's body limit and route timeout do not apply; the server's stop still waits for them.
 */
export function mountHttpHandler(
  context: RouteContext,
  path: string,
  handler: MountedHttpHandler,
): () => void {
  return httpServerOf(context).mount(path, handler);
}
