import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A loopback TCP proxy to the broker that can freeze: from `freeze()` on it forwards nothing in
 * either direction and closes nothing, as a dead network path does. Both ends only learn of it
 * from their own timeouts (heartbeats).
 */
export class FreezableProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #frozen = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(target: { host: string; port: number }): Promise<FreezableProxy> {
    const server = createServer();
    const proxy = new FreezableProxy(server);
    server.on("connection", (client) => proxy.#accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("The proxy is not listening");
    return address.port;
  }

  /** Stops forwarding bytes, for good; connections stay open. */
  freeze(): void {
    this.#frozen = true;
  }

  /** Destroys every connection and closes the listener. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = createConnection(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => this.#sockets.delete(socket));
    }
    const forward = (from: Socket, to: Socket): void => {
      from.on("data", (chunk) => {
        if (!this.#frozen) to.write(chunk);
      });
      from.on("end", () => {
        if (!this.#frozen) to.end();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  }
}
