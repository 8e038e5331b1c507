import { type ChannelModel, connect } from "amqplib";
import { AmqpError, describeError, redactUrl } from "./amqp-error.js";
import { backoffDelay, pause, type ReconnectOptions } from "./backoff.js";
import { loginRefusal } from "./login-refusal.js";

/** Settings of one managed connection. */
export interface ConnectionManagerOptions {
  readonly url: string;
  /** Shown by the broker (`rabbitmqctl list_connections name`). */
  readonly name: string;
  readonly reconnect: ReconnectOptions;
}

/**
 * One AMQP connection that comes back: when it drops, the next `acquire` waits for a
 * reconnection made with exponential backoff. Users watch their own channels' `close` events
 * and re-open them (re-declaring topology) on the connection `acquire` hands out.
 */
export class ConnectionManager {
  readonly #options: ConnectionManagerOptions;
  readonly #closing = new AbortController();
  #connection: ChannelModel | undefined;
  #connecting: Promise<ChannelModel> | undefined;
  #lastError: unknown;

  constructor(options: ConnectionManagerOptions) {
    this.#options = options;
  }

  /** True once `close` was called. */
  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /** The open connection, if there is one now (no connection attempt is made). */
  get current(): ChannelModel | undefined {
    return this.#connection;
  }

  /**
   * An open connection: the current one, or the next one the reconnection loop opens.
   * Rejects with CONNECTION_FAILED after `timeoutMs`, when `signal` aborts or when the manager
   * closes, and at once with LOGIN_REFUSED when the broker refuses the credentials.
   */
  acquire(timeoutMs: number, signal?: AbortSignal): Promise<ChannelModel> {
    if (this.#connection !== undefined) return Promise.resolve(this.#connection);
    if (this.closed) return Promise.reject(this.#failure("the connection was closed"));
    if (this.#connecting === undefined) {
      const connecting = this.#connectLoop();
      // A refused login ends the loop; the next acquire tries once more (the user may exist by then).
      connecting.catch(() => {
        if (this.#connecting === connecting) this.#connecting = undefined;
      });
      this.#connecting = connecting;
    }
    return this.#race(this.#connecting, timeoutMs, signal);
  }

  /**
   * Closes the connection and stops reconnecting. amqplib settles a close only when the broker
   * answers, so on a dead or frozen connection this waits until `signal` fires and then
   * destroys the socket (the broker hands unacknowledged messages to the next consumer once it
   * notices the connection is gone).
   */
  async close(signal?: AbortSignal): Promise<void> {
    this.#closing.abort();
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection === undefined) return;
    if (signal?.aborted) return destroySocket(connection);
    const closed = connection.close().catch(() => {});
    if (signal === undefined) return closed;
    await new Promise<void>((resolve) => {
      const onAbort = (): void => {
        destroySocket(connection);
        resolve();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      closed.then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  async #connectLoop(): Promise<ChannelModel> {
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw this.#failure("the connection was closed");
      try {
        const connection = await connect(this.#options.url, {
          timeout: 10_000,
          clientProperties: { connection_name: this.#options.name },
        });
        if (this.closed) {
          await connection.close().catch(() => {});
          throw this.#failure("the connection was closed");
        }
        connection.on("error", (error: Error) => {
          this.#lastError = error;
        });
        connection.on("close", () => this.#onClose(connection));
        this.#connection = connection;
        this.#connecting = undefined;
        return connection;
      } catch (error) {
        if (error instanceof AmqpError) throw error;
        this.#lastError = error;
        // A refused login is an answer, not an outage: retrying cannot change it.
        const refused = loginRefusal(this.#options.url, error);
        if (refused !== undefined) throw refused;
        await pause(backoffDelay(this.#options.reconnect, attempt), this.#closing.signal);
      }
    }
  }

  #onClose(connection: ChannelModel): void {
    if (this.#connection === connection) this.#connection = undefined;
  }

  #race(
    connecting: Promise<ChannelModel>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<ChannelModel> {
    return new Promise((resolve, reject) => {
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(
            () => finish(() => reject(this.#failure(`no connection within ${timeoutMs} ms`))),
            timeoutMs,
          )
        : undefined;
      const onAbort = (): void => finish(() => reject(this.#failure("the wait was aborted")));
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        settle();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      connecting.then(
        (connection) => finish(() => resolve(connection)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }

  #failure(reason: string): AmqpError {
    const last = this.#lastError === undefined ? "" : ` (last error: ${describeError(this.#lastError)})`;
    return new AmqpError(
      "CONNECTION_FAILED",
      `Cannot reach RabbitMQ at ${redactUrl(this.#options.url)}: ${reason}${last}`,
      { cause: this.#lastError },
    );
  }
}

/** Ends a connection at once, without the closing handshake (the socket is destroyed). */
function destroySocket(connection: ChannelModel): void {
  const socket = (connection.connection as unknown as { stream?: { destroy(): void } }).stream;
  socket?.destroy();
}
