import type { Plugin } from "@routekit/core";
import { LlmError } from "./errors.js";
import { llmComponent, modelsOf } from "./llm-component.js";
import type { LanguageModel } from "./model-types.js";
import { TOOL_NAME_PATTERN } from "./tool-types.js";

/** Options of `llmPlugin`. */
export interface LlmPluginOptions {
  /** Models by the name routes use in `llm("name")` / `llm:name`. */
  models: Record<string, LanguageModel>;
}

/** Installs the `llm:` component and the models; the tool registry is `context.tools`. */
export function llmPlugin(options: LlmPluginOptions): Plugin {
  if (
    options === null ||
    typeof options !== "object" ||
    options.models === null ||
    typeof options.models !== "object"
  ) {
    throw new LlmError(
      "OPTION_INVALID",
      "llmPlugin({ models }) expects models by name, e.g. { openai: openAiChat({ model: 'gpt-4o-mini' }) }",
    );
  }
  for (const [name, model] of Object.entries(options.models)) {
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new LlmError(
        "OPTION_INVALID",
        `llmPlugin: model name '${name}' must be letters, digits, '_' or '-'`,
      );
    }
    if (model === null || typeof model !== "object" || typeof model.generate !== "function") {
      throw new LlmError(
        "OPTION_INVALID",
        `llmPlugin: model '${name}' must be a provider such as openAiChat({...}) (found ${typeof model})`,
      );
    }
  }
  return {
    name: "llm",
    install(context) {
      const models = modelsOf(context);
      for (const [name, model] of Object.entries(options.models)) models.set(name, model);
      context.addComponent(llmComponent);
    },
  };
}
