import { checkInterceptor, type StepInterceptor } from "../compile/step-interceptor.js";
import { RoutekitError } from "../errors/errors.js";
import type { Processor } from "../model/exchange.js";
import type { ProvidedService, ServiceKey } from "../model/service-key.js";
import { checkPlugin, describeArgument } from "./check-extension.js";
import type { Plugin, RouteAspectHandler, RouteContext } from "./context-types.js";
import { installPlugin, type PluginHost } from "./install-plugin.js";

/** The context a plugin goes into: what it adds components, hooks and interceptors through. */
export type PluginTarget = RouteContext &
  Pick<PluginHost, "addComponent" | "addLifecycle" | "addInterceptor">;

/**
 * What plugins added to one context beyond its components and lifecycle hooks: DSL steps, aspect
 * handlers, step interceptors (in the order added) and services; and which plugin is installing
 * now, so a lifecycle hook it adds is named after it.
 */
export class ContextPlugins {
  /** The DSL steps plugins added, by verb name (the compiler reads them). */
  readonly steps = new Map<string, (...args: never[]) => Processor>();
  /** The aspect handlers plugins added, by aspect name. */
  readonly aspects = new Map<string, RouteAspectHandler>();
  readonly #interceptors: StepInterceptor[] = [];
  readonly #services = new Map<string | ServiceKey<unknown>, unknown>();
  #installing: string | undefined;

  /** The step interceptors added so far, in order (the same array as interceptors are added). */
  get interceptors(): readonly StepInterceptor[] {
    return this.#interceptors;
  }

  /** "plugin 'name'" while a plugin is installing, else undefined. */
  get installingLabel(): string | undefined {
    return this.#installing === undefined ? undefined : `plugin '${this.#installing}'`;
  }

  /** Checks `plugin` and installs what it declares into `context`. */
  install(plugin: Plugin, context: PluginTarget): void {
    checkPlugin(plugin);
    this.#installing = plugin.name;
    try {
      installPlugin(
        {
          context,
          steps: this.steps,
          aspects: this.aspects,
          addComponent: (component) => context.addComponent(component),
          addLifecycle: (hook) => context.addLifecycle(hook),
          addInterceptor: (interceptor) => context.addInterceptor(interceptor),
          provide: (service) => this.provide(plugin.name, service),
        },
        plugin,
      );
    } finally {
      this.#installing = undefined;
    }
  }

  /** Gives a typed service its value in this context; refuses one that already has a value. */
  provide(pluginName: string, service: ProvidedService): void {
    const key = (service as Partial<ProvidedService> | null)?.key;
    if (key === null || typeof key !== "object" || typeof key.name !== "string") {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Plugin '${pluginName}': setup's services must be made by provideService(key, value) (found ${describeArgument(service)})`,
      );
    }
    if (this.#services.has(key)) {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Plugin '${pluginName}': service '${key.name}' already has a value in this context (provided twice, or read before the plugin was installed)`,
      );
    }
    this.#services.set(key, service.value);
  }

  /** Checks and appends a step interceptor; returns it. */
  addInterceptor(interceptor: StepInterceptor): StepInterceptor {
    const checked = checkInterceptor(interceptor);
    this.#interceptors.push(checked);
    return checked;
  }

  /** The service under `key` (a string, or a typed key: its identity), created (with `context`) on first use. */
  service<T>(key: string | ServiceKey<T>, context: RouteContext, create: (context: RouteContext) => T): T {
    if (this.#services.has(key)) return this.#services.get(key) as T;
    const value = create(context);
    this.#services.set(key, value);
    return value;
  }
}
