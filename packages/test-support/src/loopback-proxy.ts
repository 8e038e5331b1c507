import { createConnection, createServer, type Server, type Socket } from "node:net";

/** One proxied connection: the client's socket and the one to the target. */
interface Link {
  readonly client: Socket;
  readonly upstream: Socket;
}

/**
 * A loopback TCP proxy to a server on this machine. `cut()` destroys every connection and
 * refuses new ones, as a server that went away does. `freeze()` forwards nothing more in either
 * direction and closes nothing, as a dead network path does: both ends learn of it only from
 * their own timeouts (heartbeats), and one end closing is not passed on to the other. `restore()`
 * forwards again (after a freeze, what was held back is delivered, as TCP would once the path
 * came back).
 */
export class LoopbackProxy {
  readonly #server: Server;
  readonly #links = new Set<Link>();
  #cut = false;
  #frozen = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(target: { host: string; port: number }): Promise<LoopbackProxy> {
    const server = await proxyServer();
    const proxy = new LoopbackProxy(server);
    server.on("connection", (client) => proxy.#accept(client, target));
    return proxy;
  }

  get port(): number {
    return proxyPort(this.#server);
  }

  /** Destroys every connection; new ones are refused until `restore()`. */
  cut(): void {
    this.#cut = true;
    for (const link of this.#links) destroy(link);
    this.#links.clear();
  }

  /** Stops forwarding bytes; connections stay open (new ones are accepted but forward nothing). */
  freeze(): void {
    if (this.#frozen) return;
    this.#frozen = true;
    for (const link of this.#links) hold(link);
  }

  /** Accepts and forwards again, after a cut or a freeze. */
  restore(): void {
    this.#cut = false;
    if (!this.#frozen) return;
    this.#frozen = false;
    for (const link of this.#links) {
      // An end that closed while frozen takes its partner with it now.
      if (link.client.destroyed || link.upstream.destroyed) {
        destroy(link);
        this.#links.delete(link);
      } else forward(link);
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, target: { host: string; port: number }): void {
    if (this.#cut) {
      client.destroy();
      return;
    }
    const link: Link = { client, upstream: createConnection(target.port, target.host) };
    this.#links.add(link);
    for (const socket of [link.client, link.upstream]) {
      socket.on("error", () => {});
      socket.on("close", () => {
        // A frozen path passes nothing on, not even a close.
        if (this.#frozen) return;
        this.#links.delete(link);
        destroy(link);
      });
    }
    if (this.#frozen) hold(link);
    else forward(link);
  }
}

/** Bytes flow both ways; an end closing ends the other (`pipe`, with backpressure). */
function forward(link: Link): void {
  link.client.pipe(link.upstream);
  link.upstream.pipe(link.client);
}

/** Bytes stay where they are: neither socket is read, so nothing reaches the other end. */
function hold(link: Link): void {
  link.client.unpipe(link.upstream);
  link.upstream.unpipe(link.client);
  link.client.pause();
  link.upstream.pause();
}

function destroy(link: Link): void {
  link.client.destroy();
  link.upstream.destroy();
}

/** A TCP server listening on an ephemeral loopback port, for a proxy to take connections on. */
export async function proxyServer(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** The port a proxy's server listens on. */
export function proxyPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The proxy is not listening");
  return address.port;
}

/** A loopback port nothing listens on (bound, read, released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
