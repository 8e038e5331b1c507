import { RoutekitMcpError } from "../errors.js";

/** The body as an object of arguments (an object, or JSON text of one; nothing is `{}`). */
export function argumentsOf(body: unknown, uri: string): Record<string, unknown> {
  if (body === undefined || body === null || body === "") return {};
  let value = body;
  if (typeof body === "string" || body instanceof Uint8Array) {
    const text = typeof body === "string" ? body : new TextDecoder().decode(body);
    try {
      value = JSON.parse(text);
    } catch {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `Endpoint '${uri}': the body is text that is not JSON; send an object of arguments`,
      );
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RoutekitMcpError("CALL_FAILED", `Endpoint '${uri}': the body must be an object of arguments`);
  }
  return value as Record<string, unknown>;
}
