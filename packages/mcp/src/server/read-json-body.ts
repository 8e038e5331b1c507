import type { IncomingMessage } from "node:http";
import { checkJsonDepth, jsonDepthMessage } from "@routekit/core/internal";

/** A POST body read and parsed here, or the JSON-RPC refusal to answer with. */
export type JsonBodyResult =
  | { readonly kind: "parsed"; readonly body: unknown }
  | { readonly kind: "not-json" }
  | { readonly kind: "refused"; readonly status: number; readonly code: number; readonly message: string };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Reads a JSON POST body before the MCP transport sees it, so its nesting is bounded before it is
 * parsed: at most `maxBodyBytes` bytes (413), valid JSON (400, -32700) nested at most
 * `maxJsonDepth` levels (400, -32602: tool arguments are params). Other requests are left to the
 * transport (`not-json`), their body unread.
 */
export function readJsonBody(
  request: IncomingMessage,
  maxBodyBytes: number,
  maxJsonDepth: number,
): Promise<JsonBodyResult> {
  const mediaType = (request.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
  if (request.method !== "POST" || !JSON_TYPE.test(mediaType)) return Promise.resolve({ kind: "not-json" });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      // Drained, not paused: the client finishes sending and reads the 413.
      request.off("data", onData);
      request.resume();
      chunks.length = 0;
      resolve(
        refused(
          413,
          -32000,
          `Request body too large: it exceeds the limit of ${maxBodyBytes} bytes (option 'maxBodyBytes')`,
        ),
      );
    };
    request.on("data", onData);
    request.once("error", reject);
    request.once("end", () => {
      if (size > maxBodyBytes) return;
      const text = Buffer.concat(chunks, size).toString("utf8");
      const excess = checkJsonDepth(text, maxJsonDepth);
      if (excess !== undefined) {
        const limit = `the server accepts up to ${maxJsonDepth} levels (option 'maxJsonDepth')`;
        resolve(refused(400, -32602, `Invalid params: ${jsonDepthMessage(excess)}; ${limit}`));
        return;
      }
      try {
        resolve({ kind: "parsed", body: JSON.parse(text) as unknown });
      } catch {
        resolve(refused(400, -32700, "Parse error: Invalid JSON"));
      }
    });
  });
}

function refused(status: number, code: number, message: string): JsonBodyResult {
  return { kind: "refused", status, code, message };
}
