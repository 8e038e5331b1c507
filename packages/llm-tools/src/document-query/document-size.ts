import { LlmToolsError } from "../errors.js";

/**
 * Refuses a document text longer than `maxBytes` UTF-8 bytes, naming the tool, the input key and
 * the option that sets the limit. Counts bytes only when the character count alone cannot decide.
 */
export function checkDocumentSize(text: string, maxBytes: number, toolName: string, key: string): void {
  if (text.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > maxBytes) {
    throw new LlmToolsError(
      "TOOL_LIMIT_EXCEEDED",
      toolName,
      `${toolName}: key '${key}' is ${bytes} bytes; the limit is ${maxBytes} (option 'maxDocumentBytes')`,
    );
  }
}
