import { createConnection, type Server, type Socket } from "node:net";
import { proxyPort, proxyServer } from "./loopback-proxy.js";

/** One proxied connection and the client bytes held back from the server. */
interface Link {
  readonly client: Socket;
  readonly upstream: Socket;
  held: Buffer[];
}

/**
 * A loopback TCP proxy whose client-to-server direction can be held: `hold()` keeps every byte a
 * client sends (replies still flow), `heldBytes()` counts them, and `deliverAndCut(bytes)` sends
 * the first `bytes` of them to the server and then closes the connection, as a path that healed
 * just long enough to pass on the first command before the connection died.
 */
export class RequestGateProxy {
  readonly #server: Server;
  readonly #links = new Set<Link>();
  #holding = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(target: { host: string; port: number }): Promise<RequestGateProxy> {
    const server = await proxyServer();
    const proxy = new RequestGateProxy(server);
    server.on("connection", (client) => proxy.#accept(client, target));
    return proxy;
  }

  get port(): number {
    return proxyPort(this.#server);
  }

  hold(): void {
    this.#holding = true;
  }

  heldBytes(): number {
    let total = 0;
    for (const link of this.#links) for (const chunk of link.held) total += chunk.length;
    return total;
  }

  /** Sends the first `bytes` held bytes on, drops the rest, closes every connection, stops holding. */
  async deliverAndCut(bytes: number): Promise<void> {
    this.#holding = false;
    for (const link of this.#links) {
      const first = Buffer.concat(link.held).subarray(0, bytes);
      link.held = [];
      await new Promise<void>((resolve) => link.upstream.write(first, () => resolve()));
      // Closing our side after the bytes: the server reads them, then the end of the connection.
      await new Promise<void>((resolve) => link.upstream.end(resolve));
      link.client.destroy();
    }
    this.#links.clear();
  }

  async close(): Promise<void> {
    for (const link of this.#links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    this.#links.clear();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, target: { host: string; port: number }): void {
    const link: Link = { client, upstream: createConnection(target.port, target.host), held: [] };
    this.#links.add(link);
    for (const socket of [client, link.upstream]) {
      socket.on("error", () => {});
      socket.on("close", () => {
        link.client.destroy();
        link.upstream.destroy();
        this.#links.delete(link);
      });
    }
    client.on("data", (chunk: Buffer) => {
      if (this.#holding) link.held.push(chunk);
      else link.upstream.write(chunk);
    });
    link.upstream.pipe(client);
  }
}
