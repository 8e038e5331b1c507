/** A response body as undici hands it over: an async iterable of chunks that can be destroyed. */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Closes a body that will not be read (further); the abort error this raises is expected. */
export function discardBody(body: ResponseBody): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** What `readBody` kept. */
export interface BodyPrefix {
  /** The first bytes of the body, at most the limit. */
  readonly bytes: Uint8Array;
  /** True when the body was longer than the limit (the rest was not read). */
  readonly truncated: boolean;
}

/**
 * Reads at most `maxBytes` of a body, counting bytes while iterating; once the limit is passed
 * the rest is never read and the body is destroyed, which closes the connection.
 */
export async function readBody(body: ResponseBody, maxBytes: number): Promise<BodyPrefix> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let truncated = false;
  try {
    for await (const chunk of body) {
      if (kept + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - kept));
        kept = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      kept += chunk.length;
    }
  } finally {
    if (truncated) discardBody(body);
  }
  return { bytes: Buffer.concat(chunks, kept), truncated };
}

/** Decodes UTF-8; after truncation an incomplete last character is dropped, not mangled. */
export function decodeUtf8(prefix: BodyPrefix): string {
  return new TextDecoder().decode(prefix.bytes, { stream: prefix.truncated });
}

/** Reads a short excerpt of a body for an error message, then closes it. */
export async function readExcerpt(body: ResponseBody, maxCharacters: number): Promise<string> {
  try {
    const prefix = await readBody(body, maxCharacters * 4);
    const characters = Array.from(decodeUtf8(prefix));
    const excerpt = characters.slice(0, maxCharacters).join("");
    return characters.length > maxCharacters || prefix.truncated ? `${excerpt}…` : excerpt;
  } catch {
    return "";
  } finally {
    discardBody(body);
  }
}
