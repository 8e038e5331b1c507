import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The quickstart's inventory: two items, stock per warehouse. */
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

export interface InventoryServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** The quickstart's inventory API on 127.0.0.1: `GET /inventory` and `GET /inventory/<sku>`. */
export async function startInventoryServer(): Promise<InventoryServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const sku = path.startsWith("/inventory/") ? path.slice("/inventory/".length) : undefined;
    const found = path === "/inventory" ? INVENTORY : INVENTORY.items.find((item) => item.sku === sku);
    response.writeHead(found === undefined ? 404 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(found ?? { error: `no resource ${path}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
