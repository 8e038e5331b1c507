import { request } from "node:http";

/** A response read whole. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One HTTP request with node:http, so tests can send what a browser's fetch would not (any Host
 * header, any method, any path bytes).
 */
export function rawRequest(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? "GET",
        path: options.path ?? `${target.pathname}${target.search}`,
        headers: options.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** Opens the event stream and resolves with the first `snapshot` event's data, then closes it. */
export function firstSnapshot(url: string): Promise<unknown> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}` },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`event stream answered ${response.statusCode}`));
          return;
        }
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          const match = /event: snapshot\ndata: (.*)\n\n/.exec(text);
          if (match !== null) {
            outgoing.destroy();
            resolve(JSON.parse(match[1]!));
          }
        });
      },
    );
    outgoing.on("error", (error) => {
      if (!outgoing.destroyed) reject(error);
    });
    outgoing.end();
  });
}
