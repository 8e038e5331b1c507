import type { Plugin } from "@routekit/core";
import { DEFAULT_MAX_JSON_DEPTH } from "@routekit/core/internal";
import type { Dispatcher } from "undici";
import { createHttpComponent, createHttpsComponent } from "./http-component.js";
import { HttpError } from "./http-error.js";
import { HttpServer, type HttpServerSettings } from "./http-server.js";
import { attachServer } from "./http-server-registry.js";

/** Options of `httpPlugin`. */
export interface HttpPluginOptions {
  /** Interface to listen on (default "127.0.0.1"). */
  host?: string;
  /** Port (default 0: an ephemeral port; read it from `httpServerOf(context).url`). */
  port?: number;
  /** Largest request body accepted, in bytes (default 1 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a JSON request body (default 128); a deeper
   * body gets 400 before it is parsed (parsing and walking deep nesting costs many times a flat body).
   */
  maxJsonDepth?: number;
  /** Deadline for a route to answer, in ms (default 30000); then the exchange is aborted. */
  requestTimeoutMs?: number;
  /** Status sent when a request times out (default 503; 504 is the other usual choice). */
  timeoutStatus?: number;
  /**
   * What a 500 reply says: "none" (default) sends only `Internal Server Error` and the exchange
   * id, and logs the error's message with that id; "message" also sends the error's message to
   * the client (only for trusted clients: an error's text can carry secrets).
   */
  errorDetail?: "message" | "none";
  /**
   * How long a client may take to send the request headers, in ms (default: requestTimeoutMs
   * plus 1000, at most 60000); a slower connection is closed within about a second after it.
   */
  headersTimeoutMs?: number;
  /** The undici dispatcher of the client producer (default: undici's global dispatcher). */
  dispatcher?: Dispatcher;
}

function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `httpPlugin: option '${name}' expects an integer from ${min} to ${max} (found ${JSON.stringify(value)})`,
    );
  }
  return value;
}

function settingsOf(options: HttpPluginOptions): HttpServerSettings {
  if (options === null || typeof options !== "object") {
    throw new HttpError("HTTP_OPTION_INVALID", `httpPlugin expects an options object (found ${options})`);
  }
  const known = new Set([
    "host",
    "port",
    "maxBodyBytes",
    "maxJsonDepth",
    "requestTimeoutMs",
    "timeoutStatus",
    "errorDetail",
    "headersTimeoutMs",
    "dispatcher",
  ]);
  for (const name of Object.keys(options)) {
    if (!known.has(name)) {
      throw new HttpError(
        "HTTP_OPTION_INVALID",
        `httpPlugin: unknown option '${name}'; valid options: ${[...known].join(", ")}`,
      );
    }
  }
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host.trim() === "") {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `httpPlugin: option 'host' expects an interface address like "127.0.0.1" (found ${JSON.stringify(host)})`,
    );
  }
  const errorDetail = options.errorDetail ?? "none";
  if (errorDetail !== "message" && errorDetail !== "none") {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `httpPlugin: option 'errorDetail' expects "message" or "none" (found ${JSON.stringify(errorDetail)})`,
    );
  }
  const requestTimeoutMs = checkInteger("requestTimeoutMs", options.requestTimeoutMs ?? 30_000, 1, 2 ** 31);
  return {
    host,
    port: checkInteger("port", options.port ?? 0, 0, 65_535),
    maxBodyBytes: checkInteger("maxBodyBytes", options.maxBodyBytes ?? 1024 * 1024, 0, 2 ** 31),
    maxJsonDepth: checkInteger("maxJsonDepth", options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH, 1, 100_000),
    requestTimeoutMs,
    headersTimeoutMs: checkInteger(
      "headersTimeoutMs",
      options.headersTimeoutMs ?? Math.min(60_000, requestTimeoutMs + 1_000),
      1,
      2 ** 31,
    ),
    timeoutStatus: checkInteger("timeoutStatus", options.timeoutStatus ?? 503, 500, 599),
    errorDetail,
  };
}

/**
 * Installs the `http:` component (server routes `http:/path` and client calls
 * `http://host/path`), the `https:` client component, and the context's one HTTP server, which
 * listens when the context starts and closes gracefully when it stops.
 */
export function httpPlugin(options: HttpPluginOptions = {}): Plugin {
  const settings = settingsOf(options);
  const dispatcher = options.dispatcher;
  return {
    name: "http",
    install(context) {
      const server = attachServer(context, () => new HttpServer(context, settings));
      context.addComponent(createHttpComponent(dispatcher));
      context.addComponent(createHttpsComponent(dispatcher));
      context.addLifecycle({ start: () => server.start(), stop: (budget) => server.stop(budget) });
    },
  };
}
