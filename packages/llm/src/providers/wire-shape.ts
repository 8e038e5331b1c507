import { LlmError } from "../errors.js";
import type { ModelResponse } from "../model-types.js";

/** A JSON object as parsed from a provider reply. */
export type WireObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isWireObject(value: unknown): value is WireObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `MODEL_RESPONSE_INVALID` error: what was expected at which path of which reply, and what came. */
export function responseShapeError(where: string, path: string, expected: string, found: unknown): LlmError {
  return new LlmError(
    "MODEL_RESPONSE_INVALID",
    `${where}: expected ${path} to be ${expected}, got ${describeWireValue(found)}`,
  );
}

/** A short description of a JSON value for error messages. */
export function describeWireValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return `an object with keys [${Object.keys(value).slice(0, 8).join(", ")}]`;
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** A token count from a usage object, 0 when absent or malformed. */
export function tokenCount(usage: unknown, key: string): number {
  if (!isWireObject(usage)) return 0;
  const value = usage[key];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** `response` with the provider's response id, when `id` is a non-empty string. */
export function withResponseId(id: unknown, response: ModelResponse): ModelResponse {
  if (typeof id === "string" && id !== "") response.responseId = id;
  return response;
}
