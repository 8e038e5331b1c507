import type { ServerResponse } from "node:http";
import type { ConsoleStore } from "./console-store.js";
import { liveSnapshot } from "./live-snapshot.js";

/** How often connected pages get counters; nothing runs while no page is connected. */
const TICK_MS = 500;
/** Pages connected at once; more are refused with 503. */
export const MAX_STREAMS = 16;

/** The server-sent event streams of the connected pages. */
export class EventStreams {
  readonly #store: ConsoleStore;
  readonly #clients = new Set<ServerResponse>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastSent = "";

  constructor(store: ConsoleStore) {
    this.#store = store;
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Adds a page's stream, sends it the current state and keeps it updated until it closes. */
  add(response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    this.#clients.add(response);
    this.#store.recording.watch(true);
    response.on("close", () => this.#remove(response));
    this.#write(response, JSON.stringify(liveSnapshot(this.#store)));
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), TICK_MS);
    }
  }

  /** Ends every stream and the timer (when the console stops). */
  close(): void {
    for (const client of this.#clients) client.end();
    this.#clients.clear();
    this.#stopTimer();
    this.#store.recording.watch(false);
  }

  #remove(response: ServerResponse): void {
    this.#clients.delete(response);
    if (this.#clients.size === 0) {
      this.#stopTimer();
      this.#store.recording.watch(false);
    }
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#lastSent = "";
  }

  #tick(): void {
    const data = JSON.stringify(liveSnapshot(this.#store));
    // Unchanged state sends a comment only, which keeps proxies from closing an idle stream.
    if (data === this.#lastSent) {
      for (const client of this.#clients) client.write(": idle\n\n");
      return;
    }
    this.#lastSent = data;
    for (const client of this.#clients) this.#write(client, data);
  }

  #write(response: ServerResponse, data: string): void {
    response.write(`event: snapshot\ndata: ${data}\n\n`);
  }
}
