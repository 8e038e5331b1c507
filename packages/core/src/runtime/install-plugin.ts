import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Component } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import type { Processor } from "../model/exchange.js";
import { checkAdditions, describeArgument } from "./check-extension.js";
import type {
  LifecycleHook,
  Plugin,
  PluginAdditions,
  ProvidedService,
  RouteAspectHandler,
  RouteContext,
} from "./context-types.js";

/** What installing a plugin needs of the context it goes into. */
export interface PluginHost {
  readonly context: RouteContext;
  /** The context's DSL verbs from plugins, by name. */
  readonly steps: Map<string, (...args: never[]) => Processor>;
  /** The context's aspect handlers, by aspect name. */
  readonly aspects: Map<string, RouteAspectHandler>;
  addComponent(component: Component): void;
  addLifecycle(hook: LifecycleHook): void;
  addInterceptor(interceptor: StepInterceptor): void;
  /** Gives a typed service its value in this context (before anything read it). */
  provide(service: ProvidedService): void;
}

/**
 * Installs a plugin into one context: what its object declares (components, verbs, properties,
 * aspect handlers, interceptors, lifecycle hooks), then what its `setup` returns, then its
 * `install`. The plugin was checked by `checkPlugin`.
 */
export function installPlugin(host: PluginHost, plugin: Plugin): void {
  installAdditions(host, plugin.name, { ...plugin, verbs: plugin.steps }, "steps");
  if (plugin.setup !== undefined) {
    const additions = plugin.setup(host.context);
    if (additions !== undefined)
      installAdditions(host, plugin.name, checkAdditions(plugin.name, additions), "verbs");
  }
  plugin.install?.(host.context);
}

/** Installs what one plugin adds, field by field. */
function installAdditions(
  host: PluginHost,
  pluginName: string,
  additions: PluginAdditions,
  verbsField: "steps" | "verbs",
): void {
  for (const component of additions.components ?? []) host.addComponent(component);
  for (const [name, factory] of Object.entries(additions.verbs ?? {})) {
    if (typeof factory !== "function") {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Plugin '${pluginName}': ${verbsField}.${name} must be a function (...args) => processor (found ${describeArgument(factory)})`,
      );
    }
    host.steps.set(name, factory);
  }
  for (const service of additions.services ?? []) host.provide(service);
  for (const [name, create] of Object.entries(additions.properties ?? {}))
    addProperty(host.context, pluginName, name, create);
  for (const [name, handler] of Object.entries(additions.aspects ?? {})) host.aspects.set(name, handler);
  for (const interceptor of additions.interceptors ?? []) host.addInterceptor(interceptor);
  const lifecycle = additions.lifecycle;
  for (const hook of lifecycle === undefined ? [] : Array.isArray(lifecycle) ? lifecycle : [lifecycle])
    host.addLifecycle(hook as LifecycleHook);
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
