import { toRouteSource } from "./dsl/route-builder.js";
import { checkPlugin } from "./runtime/check-extension.js";
import { type ContextOptions, createRoutekitContext } from "./runtime/context.js";
import type { Plugin, RouteContext } from "./runtime/context-types.js";

const defaultPlugins: Plugin[] = [];

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

/** Creates a context with the core components (direct, seda, timer, log, mock) installed. */
export function createContext(options: ContextOptions = {}): RouteContext {
  return createRoutekitContext(options, { toRouteSource, defaultPlugins });
}
