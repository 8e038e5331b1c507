import { parseUri } from "../components/uri.js";
import type { StepDefinition } from "../model/route-definition.js";

/**
 * True for a step that logs at level off and so does nothing: `.log(message, "off")` and
 * `.to("log:name?level=off")`. The compiler leaves such steps out of the route (their URI and
 * options were still checked when the step was compiled).
 */
export function isSilentLog(step: StepDefinition): boolean {
  const fields = step as { type: string; level?: unknown; uri?: unknown };
  if (fields.type === "log") return fields.level === "off";
  if (fields.type !== "to" || typeof fields.uri !== "string" || !fields.uri.startsWith("log:")) return false;
  return parseUri(fields.uri).query.get("level") === "off";
}
