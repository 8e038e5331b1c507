import {
  OBSERVABLE_SOURCE_ASPECT,
  observableComponent,
  observableSourceAspect,
} from "./components/observable-source.js";
import { toRouteSource } from "./dsl/route-builder.js";
import { RoutekitError } from "./errors/errors.js";
import { checkPlugin } from "./runtime/check-extension.js";
import { type ContextOptions, createRoutekitContext } from "./runtime/context.js";
import type { Plugin, PluginAdditions, RouteContext } from "./runtime/context-types.js";
import { observeEndpoint } from "./runtime/observe-endpoint.js";
// Kept in the emitted declarations (a value import used only in code is not): the module
// augmentation that declares `context.observe` reaches whoever imports the published types.
import "./runtime/observe-endpoint.js";
import { describeValue } from "./support/describe-value.js";

/** Observables both ways: `from(observable$)` (the `observable:` endpoint) and `context.observe(uri)`. */
const observablePlugin: Plugin = {
  name: "routekit-observables",
  setup: () => ({
    components: [observableComponent],
    aspects: { [OBSERVABLE_SOURCE_ASPECT]: observableSourceAspect },
    properties: { observe: (context) => (uri: string) => observeEndpoint(context, uri) },
  }),
};

/** Plugins every context created from now on installs first (`definePlugin({ everyContext: true })`). */
const defaultPlugins: Plugin[] = [observablePlugin];

/** What `definePlugin` takes. */
export interface PluginDefinition {
  /** Names the plugin in errors and log lines (e.g. a lifecycle hook that fails). */
  readonly name: string;
  /**
   * Every context created from now on installs the plugin first, without `context.use`. For a
   * package whose import promises something on every context (`@routekit/llm` gives each its own
   * `tools` registry and the `asLlmTool` aspect), not for components or settings a user chooses.
   */
  readonly everyContext?: boolean;
  /**
   * Runs once in each context the plugin is installed in (each gets its own state) and returns
   * what the plugin adds there: components, verbs, interceptors, services, properties, aspect
   * handlers, lifecycle hooks.
   */
  setup(context: RouteContext): PluginAdditions | undefined;
}

/**
 * A plugin: `context.use(plugin)` runs its `setup` in that context and installs what it returns.
 * Throws for a definition without a name or a `setup` function.
 */
export function definePlugin(definition: PluginDefinition): Plugin {
  const candidate = definition as Partial<PluginDefinition> | null;
  if (
    candidate === null ||
    typeof candidate !== "object" ||
    typeof candidate.name !== "string" ||
    candidate.name === ""
  ) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `definePlugin expects { name, setup(context), everyContext? } with a non-empty name (found ${describeValue(candidate?.name)} as name)`,
    );
  }
  if (typeof candidate.setup !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `definePlugin '${candidate.name}': setup must be a function (context) => what the plugin adds (found ${describeValue(candidate.setup)})`,
    );
  }
  const plugin: Plugin = Object.freeze({ name: candidate.name, setup: candidate.setup });
  checkPlugin(plugin);
  if (candidate.everyContext === true && !defaultPlugins.some((known) => known.name === plugin.name))
    defaultPlugins.push(plugin);
  return plugin;
}

/** Creates a context with the core components (direct, seda, timer, log, mock, observable) installed. */
export function createContext(options: ContextOptions = {}): RouteContext {
  return createRoutekitContext(options, { toRouteSource, defaultPlugins });
}
