/** What every tool wrapper takes besides its step's options. */
export interface ToolWrapperOptions {
  /** Where the tool route consumes from. Default `direct:llm.<tool name>`. */
  endpointUri?: string;
  /** What the model is told the tool does; each wrapper has a default. */
  description?: string;
}

/** Splits wrapper options into the wrapper's own and the step's. */
export function splitWrapperOptions<TStepOptions extends object>(
  options: TStepOptions & ToolWrapperOptions,
): { wrapper: ToolWrapperOptions; step: TStepOptions } {
  const { endpointUri, description, ...step } = options;
  return { wrapper: { endpointUri, description }, step: step as TStepOptions };
}
