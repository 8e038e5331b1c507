import { reasonOf, ToolInputError } from "./errors.js";

/** A tool's input after parsing: a plain JSON object. */
export type ToolInput = Record<string, unknown>;

/**
 * Reads a tool's input from a message body: an object as it is, or JSON text of an object.
 * Every failure names the tool and says what was expected and what was found.
 */
export function parseToolInput(body: unknown, toolName: string): ToolInput {
  if (body === undefined || body === null || (typeof body === "string" && body.trim() === "")) {
    throw new ToolInputError(toolName, `${toolName}: input is empty (expected a JSON object)`);
  }
  let value: unknown = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch (error) {
      const reason = reasonOf(error);
      throw new ToolInputError(
        toolName,
        `${toolName}: input is not valid JSON (${reason}); expected a JSON object`,
      );
    }
  } else if (body instanceof Uint8Array) {
    return parseToolInput(new TextDecoder().decode(body), toolName);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolInputError(toolName, `${toolName}: input is not a JSON object (found ${describe(value)})`);
  }
  return value as ToolInput;
}

/**
 * True when a text starts, after whitespace, as a JSON object (`{`). Tools that also take plain
 * text (an expression, a URL, a query, XML) read such text as their JSON input, so a malformed
 * object is reported as invalid JSON rather than used as the plain-text form.
 */
export function startsAsJsonObject(text: string): boolean {
  return text.trimStart().startsWith("{");
}

/** The error for a key holding the wrong type: names the tool, the key, what was expected and found. */
function wrongType(toolName: string, key: string, expected: string, value: unknown): ToolInputError {
  return new ToolInputError(
    toolName,
    `${toolName}: key '${key}' must be ${expected} (found ${describe(value)})`,
    key,
  );
}

/** A required string field; names the tool and key when it is missing or not a string. */
export function requireString(input: ToolInput, key: string, toolName: string): string {
  const value = input[key];
  if (value === undefined || value === null) {
    throw new ToolInputError(toolName, `${toolName}: required key '${key}' is missing`, key);
  }
  if (typeof value !== "string") throw wrongType(toolName, key, "a string", value);
  return value;
}

/** An optional string field: undefined when absent, an error when present with another type. */
export function optionalString(input: ToolInput, key: string, toolName: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw wrongType(toolName, key, "a string", value);
  return value;
}

/** An optional number field; numeric strings are accepted, anything else names the key. */
export function optionalNumber(input: ToolInput, key: string, toolName: string): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number))
    throw wrongType(toolName, key, "a number", value);
  return number;
}

/** An optional boolean field; "true"/"false" strings are accepted. */
export function optionalBoolean(input: ToolInput, key: string, toolName: string): boolean | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  throw wrongType(toolName, key, "a boolean", value);
}

/** A short description of a value's JSON type, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return value.length > 40 ? "a string" : `the string ${JSON.stringify(value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
