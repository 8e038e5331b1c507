import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The inventory the demo's local API serves. */
export const INVENTORY = {
  items: [
    {
      sku: "W-1",
      name: "widget",
      unitPrice: 3.5,
      warehouses: [
        { id: "north", stock: 140 },
        { id: "south", stock: 95 },
      ],
    },
    {
      sku: "G-2",
      name: "gadget",
      unitPrice: 12,
      warehouses: [
        { id: "north", stock: 8 },
        { id: "south", stock: 30 },
      ],
    },
  ],
};

/** A running inventory API on loopback. */
export interface InventoryServer {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts a tiny JSON API on 127.0.0.1: `GET /inventory` lists every item, `GET /inventory/<sku>`
 * returns one. `port` 0 picks a free port.
 */
export function startInventoryServer(port: number): Promise<InventoryServer> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const sku = url.pathname.startsWith("/inventory/") ? url.pathname.slice("/inventory/".length) : undefined;
    const found =
      url.pathname === "/inventory" ? INVENTORY : INVENTORY.items.find((item) => item.sku === sku);
    if (request.method !== "GET" || found === undefined) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: `no resource ${request.method} ${url.pathname}` }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(found));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      const bound = (server.address() as AddressInfo).port;
      resolve({
        baseUrl: `http://127.0.0.1:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
