import type { ToolResult } from "@routekit/llm/tool";
import { reasonOf } from "../errors.js";
import type { HttpToolResultMode } from "./http-tool-options.js";
import { reencodeJson } from "./result-format.js";

const EXCERPT_CHARACTERS = 512;

/**
 * Turns a response into the tool result. A non-2xx status is `HTTP <status>: <body>` with
 * isError, whatever the result mode. Otherwise "text" is the body, "status+text" is the status,
 * a line break and the body, and "json" is the body re-encoded Go-style (an empty body is
 * `null`; a body that is not JSON is an error result).
 */
export function formatResponse(
  mode: HttpToolResultMode,
  status: number,
  text: string,
  truncated: boolean,
): ToolResult {
  const metadata: Record<string, unknown> = truncated ? { status, truncated: true } : { status };
  if (status < 200 || status >= 300) return { output: `HTTP ${status}: ${text}`, isError: true, metadata };
  if (mode === "text") return { output: text, isError: false, metadata };
  if (mode === "status+text") return { output: `${status}\n${text}`, isError: false, metadata };
  if (text.trim() === "") return { output: "null", isError: false, metadata };
  try {
    return { output: reencodeJson(text), isError: false, metadata };
  } catch (error) {
    const reason = reasonOf(error);
    const excerpt = Array.from(text).slice(0, EXCERPT_CHARACTERS).join("");
    return { output: `response is not valid JSON (${reason}): ${excerpt}`, isError: true, metadata };
  }
}
