import type { ToolCall } from "../model-types.js";

/**
 * A tool call whose arguments arrived as an object: `arguments` holds it, and `argumentsText`
 * is serialised only when someone reads it.
 */
export function objectToolCall(id: string, name: string, input: unknown): ToolCall {
  let text: string | undefined;
  return {
    id,
    name,
    arguments: input,
    get argumentsText(): string {
      text ??= JSON.stringify(input) ?? "";
      return text;
    },
    set argumentsText(value: string) {
      text = value;
    },
  };
}
