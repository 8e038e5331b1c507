import "@routekit/llm/tool";
import { RouteBuilder, type RouteDsl } from "@routekit/core";
import type { JsonSchema } from "@routekit/llm/tool";
import { defaultToolRouteId, splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** What makes one tool wrapper: the tool's name and description, how its options are checked, its step. */
export interface ToolWrapperSpec<TStepOptions extends object> {
  readonly toolName: string;
  /** What the model is told the tool does, unless the wrapper's `description` option says otherwise. */
  readonly description: string;
  /** Checks the step's options; throws for a bad one, so it fails when the wrapper is constructed. */
  readonly check: (options: TStepOptions) => void;
  /** The tool's input schema for these options (fixed fields leave it). */
  readonly input: (options: TStepOptions) => JsonSchema;
  /** Adds the tool's step to the route. */
  readonly addStep: (route: RouteDsl<unknown>, options: TStepOptions) => void;
}

/**
 * A tool as a self-contained route: `from(endpointUri).routeId(routeId).asLlmTool(toolName, ...)`
 * followed by the tool's step with the options given (route id `tool.<tool name>` by default). The step checks its input for every caller (naming the tool
 * and the key), so the schema is checked for calls from a model only.
 */
export class ToolWrapper<TStepOptions extends object> extends RouteBuilder {
  readonly #spec: ToolWrapperSpec<TStepOptions>;
  readonly #wrapper: ToolWrapperOptions;
  readonly #step: TStepOptions;

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(spec: ToolWrapperSpec<TStepOptions>, options: TStepOptions & ToolWrapperOptions) {
    super();
    const { wrapper, step } = splitWrapperOptions(spec.toolName, options);
    spec.check(step);
    this.#spec = spec;
    this.#wrapper = wrapper;
    this.#step = step;
  }

  override configure(): void {
    const spec = this.#spec;
    const wrapper = this.#wrapper;
    const route = this.from(wrapper.endpointUri ?? `direct:llm.${spec.toolName}`)
      .routeId(wrapper.routeId ?? defaultToolRouteId(spec.toolName))
      .asLlmTool(spec.toolName, {
        description: wrapper.description ?? spec.description,
        input: spec.input(this.#step),
        validate: "model-only",
      });
    spec.addStep(route, this.#step);
  }
}

/**
 * The class of one tool's wrapper: `new (options = {})` checks the options at once. Each public
 * wrapper (`HttpFetchTool`, `JsonPathTool`, ...) extends the class made from its tool's spec.
 */
export function toolWrapper<TStepOptions extends object>(
  spec: ToolWrapperSpec<TStepOptions>,
): new (
  options?: TStepOptions & ToolWrapperOptions,
) => ToolWrapper<TStepOptions> {
  return class extends ToolWrapper<TStepOptions> {
    constructor(options = {} as TStepOptions & ToolWrapperOptions) {
      super(spec, options);
    }
  };
}
