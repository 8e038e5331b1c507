import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteContext } from "@routekit/core";
import type { StopBudget } from "@routekit/core/internal";
import { type HttpRouteTarget, handleRequest, type RequestEnvironment } from "./handle-request.js";
import { HttpError } from "./http-error.js";
import { MountedHandlers, type MountedHttpHandler, runMounted } from "./mounted-handlers.js";
import { type HttpRouteEntry, RouteTable } from "./route-table.js";
import { jsonReply, writeReply } from "./write-reply.js";

/** Settings of the shared server (validated by `httpPlugin`). */
export interface HttpServerSettings {
  readonly host: string;
  readonly port: number;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly requestTimeoutMs: number;
  readonly timeoutStatus: number;
  readonly errorDetail: "message" | "none";
  readonly headersTimeoutMs: number;
}

/** How often Node looks for connections past their headers or request timeout (its default is 30 s). */
const CONNECTIONS_CHECK_MS = 500;

/**
 * The one HTTP server of a context, shared by every `http:/path` route. It listens when the
 * context starts and, on stop, stops accepting connections, lets in-flight requests finish and
 * then closes.
 */
export class HttpServer {
  readonly settings: HttpServerSettings;
  readonly #table = new RouteTable<HttpRouteTarget>();
  /** Raw handlers mounted at paths (`mountHttpHandler`), looked up before the routes. */
  readonly #mounts = new MountedHandlers();
  readonly #environment: RequestEnvironment;
  #server: Server | undefined;
  #stopping = false;
  #closed: Promise<void> | undefined;
  #active = 0;
  #idle: Array<() => void> = [];

  constructor(context: RouteContext, settings: HttpServerSettings) {
    this.settings = settings;
    this.#environment = {
      context,
      table: this.#table,
      maxBodyBytes: settings.maxBodyBytes,
      maxJsonDepth: settings.maxJsonDepth,
      requestTimeoutMs: settings.requestTimeoutMs,
      timeoutStatus: settings.timeoutStatus,
      errorDetail: settings.errorDetail,
      stopping: () => this.#stopping,
    };
  }

  /** The bound address as a base URL, e.g. `http://127.0.0.1:40123`. Fails before the server listens. */
  get url(): string {
    const address = this.address;
    const host = address.family === "IPv6" ? `[${address.host}]` : address.host;
    return `http://${host}:${address.port}`;
  }

  /** The bound host, port and address family. Fails before the server listens. */
  get address(): { host: string; port: number; family: string } {
    const bound = this.#server?.address();
    if (bound === null || bound === undefined || typeof bound === "string") {
      throw new HttpError(
        "HTTP_SERVER_STATE",
        "The HTTP server is not listening: it starts with context.start() and closes with context.stop()",
      );
    }
    const info = bound as AddressInfo;
    return { host: info.address, port: info.port, family: info.family };
  }

  /** How many requests are being handled right now. */
  get activeRequests(): number {
    return this.#active;
  }

  /** Registers a route for a path (and methods); fails when another route serves the same ones. */
  register(path: string, entry: HttpRouteEntry<HttpRouteTarget>): void {
    this.#table.add(path, entry.handler.uri, entry);
  }

  unregister(routeId: string): void {
    this.#table.remove(routeId);
  }

  /** Mounts a raw handler at `path` and under it (see `mountHttpHandler`); returns the unmount. */
  mount(path: string, handler: MountedHttpHandler): () => void {
    return this.#mounts.add(path, handler);
  }

  /** Starts listening (called by the context when it starts). */
  async start(): Promise<void> {
    if (this.#server !== undefined) return;
    this.#stopping = false;
    const server = createServer(
      {
        requestTimeout: this.settings.requestTimeoutMs + 1_000,
        headersTimeout: this.settings.headersTimeoutMs,
        connectionsCheckingInterval: Math.min(CONNECTIONS_CHECK_MS, this.settings.headersTimeoutMs),
      },
      (request, response) => {
        this.#active++;
        response.once("close", this.#finished);
        const mounted = this.#mounts.size === 0 ? undefined : this.#mounts.find(request.url);
        (mounted === undefined
          ? handleRequest(request, response, this.#environment)
          : runMounted(mounted, request, response, this.#environment.context, this.#stopping)
        ).catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          this.#environment.context.logger.error(
            `http: the handler failed for ${request.method ?? "?"} ${request.url ?? "?"}: ${message}`,
          );
          writeReply(response, jsonReply(500, { error: "Internal Server Error" }), true);
        });
      },
    );
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) =>
        reject(
          new HttpError(
            "HTTP_SERVER_STATE",
            `The HTTP server could not listen on ${this.settings.host}:${this.settings.port}: ${error.message}`,
            { cause: error },
          ),
        ),
      );
      server.listen(this.settings.port, this.settings.host, () => resolve());
    });
    this.#server = server;
  }

  /** Stops accepting connections; requests already received are still answered. */
  beginStop(): void {
    if (this.#stopping) return;
    this.#stopping = true;
    const server = this.#server;
    if (server === undefined) return;
    this.#closed = new Promise((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
  }

  /** Stops accepting, waits for in-flight requests (bounded by the request timeout), closes. */
  async stop(budget?: StopBudget): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    this.beginStop();
    // Within the context's stop: past its time, open connections are closed, not waited for.
    const waitMs = Math.min(
      this.settings.requestTimeoutMs + 2_000,
      budget?.timeoutMs ?? Number.POSITIVE_INFINITY,
    );
    await this.#whenIdle(Math.max(0, waitMs - 250));
    server.closeAllConnections();
    await this.#closed;
    this.#server = undefined;
    this.#closed = undefined;
  }

  /** One function for every response's close (no closure per request). */
  readonly #finished = (): void => {
    this.#active--;
    if (this.#stopping) this.#server?.closeIdleConnections();
    if (this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
  };

  #whenIdle(timeoutMs: number): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
