import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const PRICES: Record<string, { sku: string; price: number; currency: string; stock: number }> = {
  "W-1": { sku: "W-1", price: 3.5, currency: "EUR", stock: 235 },
  "G-2": { sku: "G-2", price: 12, currency: "EUR", stock: 38 },
  "S-3": { sku: "S-3", price: 0.25, currency: "EUR", stock: 12000 },
};

/** A running price API on loopback. */
export interface PriceServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Starts `GET /prices/<sku>` on 127.0.0.1, on a free port. */
export function startPriceServer(): Promise<PriceServer> {
  const server = createServer((request, response) => {
    const sku = (request.url ?? "").replace(/^\/prices\//, "");
    const price = PRICES[sku];
    response.writeHead(price === undefined ? 404 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(price ?? { error: `unknown sku '${sku}'` }));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
