import type { RouteContext } from "@routekit/core";
import { EFFECT_KEY_HEADER } from "@routekit/core";
import type { RouteDefinition } from "@routekit/core/internal";
import { copyRecord, createExchangeUnder, sendSettled } from "@routekit/core/internal";
import { createTool } from "./adapter/create-tool.js";
import { settledHandler } from "./adapter/run-tool-handler.js";
import { errorResult, errorText, withValue } from "./adapter/tool-result.js";
import { callerDeadlineOf, isBoundedByCaller } from "./bounded-call.js";
import type { ToolInputSchema } from "./schema/schema-type.js";
import type { JsonSchema, Tool, ToolCallContext, ToolDurability } from "./tool-types.js";

/** What `asLlmTool` records on a route (its `llmTool` aspect). */
export interface LlmToolAspect {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The schema as given (a Standard Schema also validates, and transforms, the arguments). */
  readonly input?: ToolInputSchema;
  /** Who is checked against the schema: every caller (default) or only calls from an llm step. */
  readonly validate?: "always" | "model-only";
  /** What a durable run does with the tool beyond calling it (approval, effects once). */
  readonly durability?: ToolDurability;
  /** Longest result the model reads, in characters. */
  readonly maxResultChars?: number;
}

/** Headers a tool route always receives. */
export const TOOL_NAME_HEADER = "llm.tool.name";
export const TOOL_CALL_ID_HEADER = "llm.tool.call_id";
/** The effect key of a durable run's call (run id, turn, call id): producers send it as `Idempotency-Key`. */
export const TOOL_EFFECT_KEY_HEADER = EFFECT_KEY_HEADER;

/** Renders a route's reply as tool output: strings as they are, other values as JSON. */
export function renderToolOutput(body: unknown): string {
  if (typeof body === "string") return body;
  if (body === undefined) return "null";
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return JSON.stringify(body) ?? "null";
}

/**
 * A Tool backed by a route: each call runs on a NEW InOut exchange sent to the route's endpoint
 * (body = the arguments object, headers `llm.tool.name` and `llm.tool.call_id` plus only the caller
 * headers the LLM step allowed). A failing route becomes `{"error": "<Type>: <message>"}` with the
 * error attached; the LLM step's `toolErrors` policy decides what the model reads of it.
 */
export function createRouteTool(context: RouteContext, route: RouteDefinition, aspect: LlmToolAspect): Tool {
  const uri = route.from;
  // Never rejects (what fails is an error result, as the tool wrapper would make it), so the
  // wrapper adds no layer of its own.
  const execute = settledHandler(async (args: Record<string, unknown>, call: ToolCallContext) => {
    try {
      // Copied, not spread: on Node 20 a key added to a spread copy costs about a microsecond.
      const headers: Record<string, unknown> = copyRecord(call.headers ?? {});
      headers[TOOL_NAME_HEADER] = aspect.name;
      if (call.callId !== undefined) headers[TOOL_CALL_ID_HEADER] = call.callId;
      if (call.effectKey !== undefined) headers[TOOL_EFFECT_KEY_HEADER] = call.effectKey;
      // Under the caller's own deadline when it hands one over (one deadline per call, not two).
      const deadline = callerDeadlineOf(call);
      const exchange =
        deadline === undefined
          ? context.createExchange({
              body: args,
              headers,
              pattern: "InOut",
              signal: call.signal,
              // A caller that bounds the call fires the signal at its deadline: no second timer.
              timeoutMs: isBoundedByCaller(call) ? undefined : call.timeoutMs,
            })
          : createExchangeUnder(context, { body: args, headers, pattern: "InOut" }, deadline);
      await sendSettled(context.endpoint(uri), exchange);
      if (exchange.error !== undefined) {
        const error = exchange.error;
        return { isError: true, output: JSON.stringify({ error: `${error.name}: ${error.message}` }), error };
      }
      const result = {
        isError: false,
        output: renderToolOutput(exchange.body),
        metadata: { routeId: route.id },
      };
      return withValue<unknown>(result, exchange.body);
    } catch (error) {
      const result = errorResult(errorText(error));
      if (error instanceof Error) result.error = error;
      return result;
    }
  });
  return createTool({
    name: aspect.name,
    description: aspect.description,
    inputSchema: aspect.input ?? aspect.inputSchema,
    source: "route",
    original: { routeId: route.id, uri },
    execute,
    ...(aspect.durability === undefined ? {} : { durability: aspect.durability }),
    ...(aspect.maxResultChars === undefined ? {} : { maxResultChars: aspect.maxResultChars }),
  });
}
