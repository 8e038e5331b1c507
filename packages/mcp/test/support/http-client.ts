// What the Streamable HTTP tests send and read: the SDK's Client on a URL, a raw initialize POST,
// a result's text.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** The text blocks of a tools/call result, joined. */
export const text = (result: unknown): string =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

/** The SDK's Client connected to `url`, sending `headers` with every request. */
export async function connect(url: string, headers: Record<string, string>) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** An initialize request as raw JSON-RPC text. */
export const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** A raw POST of `body` (an initialize request by default) to `url`. */
export function post(url: string, headers: Record<string, string>, body = initialize) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

/** How many TCP servers this process listens with. */
export const listening = (): number =>
  process.getActiveResourcesInfo().filter((name) => name === "TCPServerWrap").length;
