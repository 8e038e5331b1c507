import { RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import type { RouteContext } from "./exchange.js";

/**
 * A typed per-context service, made by `defineServiceKey`: `context.service(key)` creates it with
 * `create` on first use in each context and returns the same value afterwards. Two keys never
 * share a value, even with the same name: the key itself is the identity.
 */
export interface ServiceKey<TService> {
  /** Names the service in errors (a package prefixes its own: `routekit.seda`). */
  readonly name: string;
  /** Makes the service for one context, on first use there. */
  readonly create: (context: RouteContext) => TService;
}

/** A typed key for a per-context service (see `ServiceKey`). Throws for a key without a name or `create`. */
export function defineServiceKey<TService>(
  name: string,
  create: (context: RouteContext) => TService,
): ServiceKey<TService> {
  if (typeof name !== "string" || name === "") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `defineServiceKey(name, create): name must be a non-empty string (found ${describeValue(name)})`,
    );
  }
  if (typeof create !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `defineServiceKey('${name}', create): create must be a function (context) => service (found ${describeValue(create)})`,
    );
  }
  return Object.freeze({ name, create });
}

/** A service's value for one context, given by a plugin's `setup` (made by `provideService`). */
export interface ProvidedService {
  readonly key: ServiceKey<unknown>;
  readonly value: unknown;
}

/**
 * The value `key` has in the context a plugin is set up in (`setup` returns it in `services`):
 * `context.service(key)` then returns `value` instead of creating one.
 */
export function provideService<TService>(key: ServiceKey<TService>, value: TService): ProvidedService {
  return Object.freeze({ key, value });
}
