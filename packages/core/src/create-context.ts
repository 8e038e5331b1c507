import {
  OBSERVABLE_SOURCE_ASPECT,
  observableComponent,
  observableSourceAspect,
} from "./components/observable-source.js";
import { toRouteSource } from "./dsl/route-builder.js";
import { checkPlugin } from "./runtime/check-extension.js";
import { type ContextOptions, createRoutekitContext } from "./runtime/context.js";
import type { Plugin, RouteContext } from "./runtime/context-types.js";
import { observeEndpoint } from "./runtime/observe-endpoint.js";
// Kept in the emitted declarations (a value import used only in code is not): the module
// augmentation that declares `context.observe` reaches whoever imports the published types.
import "./runtime/observe-endpoint.js";

/** Observables both ways: `from(observable$)` (the `observable:` endpoint) and `context.observe(uri)`. */
const observablePlugin: Plugin = {
  name: "routekit-observables",
  components: [observableComponent],
  aspects: { [OBSERVABLE_SOURCE_ASPECT]: observableSourceAspect },
  properties: { observe: (context) => (uri: string) => observeEndpoint(context, uri) },
};

const defaultPlugins: Plugin[] = [observablePlugin];

/**
 * Makes every context created from now on install `plugin` first. For a package whose import
 * promises something on every context — `@routekit/llm` gives each context its own `tools`
 * registry and the `asLlmTool` aspect — not for components or settings a user chooses: those go
 * through `context.use(plugin)`. Each context still gets its own installation (its own state).
 */
export function defineDefaultPlugin(plugin: Plugin): Plugin {
  checkPlugin(plugin);
  if (!defaultPlugins.some((known) => known.name === plugin.name)) defaultPlugins.push(plugin);
  return plugin;
}

/** Creates a context with the core components (direct, seda, timer, log, mock, observable) installed. */
export function createContext(options: ContextOptions = {}): RouteContext {
  return createRoutekitContext(options, { toRouteSource, defaultPlugins });
}
