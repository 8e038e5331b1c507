import { LlmToolsError } from "../errors.js";

/** The error every SSRF refusal raises (code TOOL_GUARD_REFUSED). */
export function guardError(toolName: string, message: string): LlmToolsError {
  return new LlmToolsError("TOOL_GUARD_REFUSED", toolName, message);
}
