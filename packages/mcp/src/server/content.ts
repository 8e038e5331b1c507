import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/** Bytes of an image, audio clip or binary resource: a Buffer, a Uint8Array, or base64 text. */
export type McpBytes = Uint8Array | string;

/** One part of an MCP tool result or prompt message, as the protocol sends it. */
export type McpContent = ContentBlock;

/** What a resource holds: text, or bytes (sent as base64). */
export type McpResourceContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

// Parts made by the helpers below: a reply is MCP content only when it was made as such, so a
// route whose JSON reply happens to have a `type` field stays text.
const made = new WeakSet<object>();

function mark<T extends McpContent>(part: T): T {
  made.add(part);
  return part;
}

/** A text part. */
export function mcpText(text: string): McpContent {
  return mark({ type: "text", text });
}

/** An image part, e.g. `mcpImage(pngBuffer, "image/png")`. */
export function mcpImage(data: McpBytes, mimeType: string): McpContent {
  return mark({
    type: "image",
    data: toBase64(data),
    mimeType: checkedMimeType(mimeType, "mcpImage", "image/"),
  });
}

/** An audio part, e.g. `mcpAudio(wavBuffer, "audio/wav")`. */
export function mcpAudio(data: McpBytes, mimeType: string): McpContent {
  return mark({
    type: "audio",
    data: toBase64(data),
    mimeType: checkedMimeType(mimeType, "mcpAudio", "audio/"),
  });
}

/**
 * An embedded resource: text (`{ uri, text, mimeType? }`) or bytes (`{ uri, bytes, mimeType }`).
 */
export function mcpResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { bytes: McpBytes }),
): McpContent {
  if (typeof resource?.uri !== "string" || resource.uri === "") {
    throw new TypeError(`mcpResource expects a non-empty 'uri' (found ${JSON.stringify(resource?.uri)})`);
  }
  const base =
    resource.mimeType === undefined
      ? { uri: resource.uri }
      : { uri: resource.uri, mimeType: resource.mimeType };
  if ("text" in resource && typeof resource.text === "string") {
    return mark({ type: "resource", resource: { ...base, text: resource.text } });
  }
  if ("bytes" in resource)
    return mark({ type: "resource", resource: { ...base, blob: toBase64(resource.bytes) } });
  throw new TypeError(`mcpResource('${resource.uri}') expects 'text' (a string) or 'bytes'`);
}

/** True when `value` is a part made by `mcpText`, `mcpImage`, `mcpAudio` or `mcpResource`. */
export function isMcpContent(value: unknown): value is McpContent {
  return typeof value === "object" && value !== null && made.has(value);
}

/**
 * The content blocks of a reply that is MCP content — one part, or a list of parts (strings in a
 * list are text parts) — or undefined when the reply is anything else.
 */
export function contentOf(reply: unknown): McpContent[] | undefined {
  if (isMcpContent(reply)) return [reply];
  if (!Array.isArray(reply) || reply.length === 0 || !reply.some(isMcpContent)) return undefined;
  if (!reply.every((part) => isMcpContent(part) || typeof part === "string")) return undefined;
  return reply.map((part: McpContent | string) =>
    typeof part === "string" ? { type: "text", text: part } : part,
  );
}

export function toBase64(data: McpBytes): string {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array)
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
  throw new TypeError(`expected bytes (a Buffer, a Uint8Array or base64 text), found a ${typeof data}`);
}

function checkedMimeType(mimeType: string, where: string, prefix: string): string {
  if (typeof mimeType !== "string" || !mimeType.startsWith(prefix)) {
    throw new TypeError(
      `${where} expects a MIME type starting with '${prefix}' (found ${JSON.stringify(mimeType)})`,
    );
  }
  return mimeType;
}
