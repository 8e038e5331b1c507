import type { Exchange, RouteContext } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { createTool } from "./adapter/create-tool.js";
import { ToolExecutionError } from "./errors.js";
import type { LlmToolAspect } from "./route-tool.js";
import { isValidatedFor, validateToolArgumentsAsync } from "./schema/validate-arguments.js";
import type { Tool } from "./tool-types.js";

// The route tool each context registered for an aspect: the guard validates with it, so a value
// the LLM loop already validated for that tool is not validated twice.
const routeTools = new WeakMap<LlmToolAspect, WeakMap<RouteContext, Tool>>();

/** Records the tool a context registered for a route's aspect. */
export function rememberRouteTool(context: RouteContext, aspect: LlmToolAspect, tool: Tool): void {
  let byContext = routeTools.get(aspect);
  if (byContext === undefined) {
    byContext = new WeakMap();
    routeTools.set(aspect, byContext);
  }
  byContext.set(context, tool);
}

/**
 * The first step of a tool route with `validate: "always"`: checks the body against the tool's
 * schema for every caller (an llm step, `context.request`, another route's `to`) and replaces it
 * with the validated value (defaults filled in, a Standard Schema's transforms applied). Text and
 * bytes are read as JSON (a JSON object is what a tool takes). Invalid input fails the exchange with `ToolExecutionError`
 * `TOOL_ARGUMENTS_INVALID` listing every failing path (the same message the model reads).
 */
export function createToolInputGuard(aspect: LlmToolAspect): Processor {
  let fallback: Tool | undefined;
  const toolFor = (context: RouteContext): Tool => {
    const registered = routeTools.get(aspect)?.get(context);
    if (registered !== undefined) return registered;
    fallback ??= createTool({
      name: aspect.name,
      description: aspect.description,
      inputSchema: aspect.input ?? aspect.inputSchema,
      execute: () => undefined,
    });
    return fallback;
  };
  return (exchange: Exchange) => {
    const tool = toolFor(exchange.context);
    const body = exchange.body;
    if (isValidatedFor(tool, body)) return undefined;
    let args: unknown = body;
    if (typeof body === "string" || body instanceof Uint8Array) {
      const text = typeof body === "string" ? body : new TextDecoder().decode(body);
      const parsed = parseJsonText(text);
      if (!parsed.ok) {
        const message = `invalid arguments for tool '${aspect.name}': ${parsed.reason}`;
        throw new ToolExecutionError(message, {
          toolName: aspect.name,
          code: "TOOL_ARGUMENTS_INVALID",
          issues: [{ path: "", message: parsed.reason }],
        });
      }
      args = parsed.value;
    }
    return validateToolArgumentsAsync(tool, args).then((checked) => {
      if (checked.ok) {
        exchange.body = checked.value;
        return;
      }
      // The engine wraps it in a RouteStepError naming the route and this step.
      throw new ToolExecutionError(checked.message, {
        toolName: aspect.name,
        code: "TOOL_ARGUMENTS_INVALID",
        issues: checked.issues,
      });
    });
  };
}

/** The value JSON text holds, or why it holds none. */
function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `expected a JSON object of arguments, got text that is not JSON (${reason}): ${JSON.stringify(shown)}`,
    };
  }
}
