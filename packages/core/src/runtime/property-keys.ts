import type { PropertyKey, PropertyKeyOptions } from "../model/property-key.js";
import { describeValue } from "../support/describe-value.js";

/** Names of every transient property defined in this process, by whichever package defined it. */
const transientNames = new Set<string>();
/** Every name defined, with whether it is transient: one name cannot be both. */
const definedNames = new Map<string, boolean>();

/**
 * Defines a typed exchange property. With `transient: true` the property is local to this process:
 * the stored-exchange codec, broker codecs and aggregation leave it out. Defining a name again
 * with the same `transient` returns an equivalent key; with the other one it throws.
 */
export function definePropertyKey<TValue>(options: PropertyKeyOptions): PropertyKey<TValue> {
  const name = options?.name;
  if (typeof name !== "string" || name === "") {
    throw new TypeError(
      `definePropertyKey() expects { name: a non-empty string, transient?: boolean } (found name ${describeValue(name)})`,
    );
  }
  const transient = options.transient ?? false;
  if (typeof transient !== "boolean") {
    throw new TypeError(
      `definePropertyKey('${name}'): option 'transient' must be a boolean (found ${describeValue(transient)})`,
    );
  }
  const before = definedNames.get(name);
  if (before !== undefined && before !== transient) {
    throw new TypeError(
      `definePropertyKey('${name}'): the property is already defined with transient: ${before}; one name cannot be both stored and transient`,
    );
  }
  definedNames.set(name, transient);
  if (transient) transientNames.add(name);
  return {
    name,
    transient,
    get: (exchange) => exchange.properties[name] as TValue | undefined,
    set: (exchange, value) => {
      exchange.properties[name] = value;
    },
  };
}

/** Whether `name` was defined transient (local to this process) by `definePropertyKey`. */
export function isTransientProperty(name: string): boolean {
  return transientNames.has(name);
}

/** Whether any property of `properties` is transient (the common case of none allocates nothing). */
export function hasTransientProperties(properties: Record<string, unknown>): boolean {
  if (transientNames.size === 0) return false;
  for (const name in properties) if (transientNames.has(name)) return true;
  return false;
}

/** `properties` without its transient ones: `properties` itself when it has none. */
export function withoutTransientProperties(properties: Record<string, unknown>): Record<string, unknown> {
  if (!hasTransientProperties(properties)) return properties;
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) {
    if (!transientNames.has(name)) result[name] = value;
  }
  return result;
}

/** Removes the transient properties from `properties` (a copy's, about to join a group). */
export function dropTransientProperties(properties: Record<string, unknown>): void {
  if (!hasTransientProperties(properties)) return;
  for (const name of Object.keys(properties)) if (transientNames.has(name)) delete properties[name];
}
