import { LlmToolsError } from "../errors.js";

/** What every tool wrapper takes besides its step's options. */
export interface ToolWrapperOptions {
  /** Where the tool route consumes from. Default `direct:llm.<tool name>`. */
  endpointUri?: string;
  /** What the model is told the tool does; each wrapper has a default. */
  description?: string;
  /**
   * The tool route's id, as `context.describe()`, the dev console and error messages name it.
   * Default `tool.<tool name>` (e.g. `tool.http_fetch`). Route ids are unique in a context: adding
   * a second route with the same id fails.
   */
  routeId?: string;
}

/** The tool route's id when the wrapper's `routeId` option leaves it: `tool.<tool name>`. */
export function defaultToolRouteId(toolName: string): string {
  return `tool.${toolName}`;
}

/** Splits wrapper options into the wrapper's own and the step's; a bad wrapper option throws. */
export function splitWrapperOptions<TStepOptions extends object>(
  toolName: string,
  options: TStepOptions & ToolWrapperOptions,
): { wrapper: ToolWrapperOptions; step: TStepOptions } {
  const { endpointUri, description, routeId, ...step } = options;
  if (routeId !== undefined && (typeof routeId !== "string" || routeId.trim() === "")) {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      toolName,
      `${toolName} wrapper: option 'routeId' expects a non-empty text, found ${JSON.stringify(routeId) ?? String(routeId)}`,
    );
  }
  return { wrapper: { endpointUri, description, routeId }, step: step as TStepOptions };
}
