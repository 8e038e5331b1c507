import { checkInterceptor, type StepInterceptor } from "../compile/step-interceptor.js";
import type { Processor } from "../model/exchange.js";
import type { ServiceKey } from "../model/service-key.js";
import { checkPlugin } from "./check-extension.js";
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
        },
        plugin,
      );
    } finally {
      this.#installing = undefined;
    }
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
