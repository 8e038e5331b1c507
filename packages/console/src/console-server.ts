import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createApi } from "./console-api.js";
import { ConsoleError } from "./console-error.js";
import type { ConsoleStore } from "./console-store.js";
import { EventStreams } from "./event-stream.js";
import { sendError } from "./http-replies.js";
import { MAX_URL_LENGTH, refusalOf } from "./request-guard.js";

/** The console's HTTP server while it listens. */
export class ConsoleServer {
  readonly #store: ConsoleStore;
  readonly #sockets = new Set<Socket>();
  readonly #streams: EventStreams;
  #server: Server | undefined;
  #port = 0;
  #listening = false;

  constructor(store: ConsoleStore) {
    this.#store = store;
    this.#streams = new EventStreams(store);
  }

  /** `http://host:port/` once listening. */
  get url(): string | undefined {
    if (!this.#listening) return undefined;
    const host = this.#store.options.host;
    return `http://${host.includes(":") ? `[${host}]` : host}:${this.#port}/`;
  }

  get port(): number | undefined {
    return this.#listening ? this.#port : undefined;
  }

  /** Open connections (page loads, event streams). */
  get connections(): number {
    return this.#sockets.size;
  }

  /** True while the console records step detail. */
  get recording(): boolean {
    return this.#store.recording.on;
  }

  async listen(): Promise<void> {
    if (this.#server !== undefined) return;
    const options = this.#store.options;
    const api = createApi(this.#store, this.#streams);
    const server = createServer({ maxHeaderSize: 16 * 1024 }, (request, response) => {
      // A request that arrives while the server closes gets no answer: its socket is being destroyed.
      if (this.#server !== server) return void response.destroy();
      const raw = request.url ?? "/";
      if (raw.length > MAX_URL_LENGTH)
        return sendError(response, 414, `a URL is at most ${MAX_URL_LENGTH} characters`);
      let url: URL;
      try {
        url = new URL(raw, "http://console.invalid");
      } catch {
        return sendError(response, 400, "the request URL does not parse");
      }
      const refusal = refusalOf(request, url, options, this.#port);
      if (refusal !== undefined) return sendError(response, refusal.status, refusal.message);
      // Request bodies are never read: drain them so the connection stays usable.
      request.resume();
      Promise.resolve(api(request, response, url)).catch((error: unknown) => {
        if (!response.headersSent) sendError(response, 500, `console failure: ${String(error)}`);
        else response.destroy();
      });
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) => {
        this.#server = undefined;
        reject(
          new ConsoleError(
            "LISTEN_FAILED",
            `console: cannot listen on ${options.host}:${options.port}: ${error.message}`,
            { cause: error },
          ),
        );
      });
      server.listen(options.port, options.host, () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#listening = true;
  }

  /** Ends the event streams, closes the server and every open connection. */
  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    this.#server = undefined;
    this.#listening = false;
    this.#streams.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }
}
