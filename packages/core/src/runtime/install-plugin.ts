import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Component } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import type { Processor } from "../model/exchange.js";
import { describeArgument } from "./check-extension.js";
import type { LifecycleHook, Plugin, RouteAspectHandler, RouteContext } from "./context-types.js";

/** What installing a plugin needs of the context it goes into. */
export interface PluginHost {
  readonly context: RouteContext;
  /** The context's DSL steps from plugins, by verb name. */
  readonly steps: Map<string, (...args: never[]) => Processor>;
  /** The context's aspect handlers, by aspect name. */
  readonly aspects: Map<string, RouteAspectHandler>;
  addComponent(component: Component): void;
  addLifecycle(hook: LifecycleHook): void;
  addInterceptor(interceptor: StepInterceptor): void;
}

/**
 * Installs what a plugin declares into one context: components, steps, properties (own
 * properties of that context, created on first read), aspect handlers, interceptors and
 * lifecycle hooks, then runs its `install`. The plugin was checked by `checkPlugin`.
 */
export function installPlugin(host: PluginHost, plugin: Plugin): void {
  for (const component of plugin.components ?? []) host.addComponent(component);
  for (const [name, factory] of Object.entries(plugin.steps ?? {})) {
    if (typeof factory !== "function") {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Plugin '${plugin.name}': steps.${name} must be a function (...args) => processor (found ${describeArgument(factory)})`,
      );
    }
    host.steps.set(name, factory);
  }
  for (const [name, create] of Object.entries(plugin.properties ?? {}))
    addProperty(host.context, plugin.name, name, create);
  for (const [name, handler] of Object.entries(plugin.aspects ?? {})) host.aspects.set(name, handler);
  for (const interceptor of plugin.interceptors ?? []) host.addInterceptor(interceptor);
  const lifecycle = plugin.lifecycle;
  for (const hook of lifecycle === undefined ? [] : Array.isArray(lifecycle) ? lifecycle : [lifecycle])
    host.addLifecycle(hook as LifecycleHook);
  plugin.install?.(host.context);
}

function addProperty(
  context: RouteContext,
  pluginName: string,
  name: string,
  create: (context: RouteContext) => unknown,
): void {
  if (typeof create !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `Plugin '${pluginName}': properties.${name} must be a function (context) => value (found ${describeArgument(create)})`,
    );
  }
  if (name in context && !Object.hasOwn(context, name)) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `Plugin '${pluginName}': property '${name}' would hide the context's own member of that name`,
    );
  }
  // An own property of this context only: created on first read, kept, never on a shared prototype.
  Object.defineProperty(context, name, {
    configurable: true,
    enumerable: false,
    get: () => context.service(`property:${name}`, create),
  });
}
