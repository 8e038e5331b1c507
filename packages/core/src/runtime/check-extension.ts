import type { Component } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import { didYouMean } from "../support/did-you-mean.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import type { Plugin, PluginAdditions, RouteContext } from "./context-types.js";

/** A short description of what was passed where an object was expected. */
export function describeArgument(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return `${typeof value} ${String(value)}`;
}

const PLUGIN_FIELDS = [
  "name",
  "setup",
  "components",
  "steps",
  "properties",
  "aspects",
  "interceptors",
  "lifecycle",
  "install",
];

/**
 * Refuses anything that is not a plugin `{ name, setup?, components?, steps?, properties?,
 * aspects?, interceptors?, lifecycle?, install? }`, saying what it got and where.
 */
export function checkPlugin(plugin: unknown): asserts plugin is Plugin {
  const candidate = plugin as Record<string, unknown> | null;
  if (candidate === null || typeof candidate !== "object" || typeof candidate.name !== "string") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `context.use() expects a plugin { name, setup?, components?, steps?, properties?, aspects?, interceptors?, lifecycle?, install? } (found ${describeArgument(plugin)})`,
    );
  }
  const where = `Plugin '${candidate.name}'`;
  const unknownField = Object.keys(candidate).find((key) => !PLUGIN_FIELDS.includes(key));
  if (unknownField !== undefined) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `${where}: unknown field '${unknownField}'${didYouMean(unknownField, PLUGIN_FIELDS)}; a plugin has ${PLUGIN_FIELDS.join(", ")}`,
    );
  }
  for (const hook of ["setup", "install"]) {
    if (candidate[hook] !== undefined && typeof candidate[hook] !== "function") {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `${where}: ${hook} must be a function (context) => ${hook === "setup" ? "what it adds" : "void"} (found ${describeArgument(candidate[hook])})`,
      );
    }
  }
  checkFieldShapes(where, candidate, ["components", "interceptors"], ["steps", "properties", "aspects"]);
}

const ADDITION_FIELDS = [
  "components",
  "verbs",
  "interceptors",
  "services",
  "properties",
  "aspects",
  "lifecycle",
];

/** Refuses a `setup` result that is not what a plugin adds, saying what it got and where. */
export function checkAdditions(pluginName: string, additions: unknown): PluginAdditions {
  const where = `Plugin '${pluginName}': setup`;
  const candidate = additions as Record<string, unknown> | null;
  if (candidate === null || typeof candidate !== "object" || Array.isArray(candidate)) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `${where} must return what the plugin adds { ${ADDITION_FIELDS.map((field) => `${field}?`).join(", ")} } or nothing (found ${describeArgument(additions)})`,
    );
  }
  const unknownField = Object.keys(candidate).find((key) => !ADDITION_FIELDS.includes(key));
  if (unknownField !== undefined) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `${where} returned an unknown field '${unknownField}'${didYouMean(unknownField, ADDITION_FIELDS)}; a plugin adds ${ADDITION_FIELDS.join(", ")}`,
    );
  }
  checkFieldShapes(
    where,
    candidate,
    ["components", "interceptors", "services"],
    ["verbs", "properties", "aspects"],
  );
  return candidate as PluginAdditions;
}

/** Refuses list fields that are not arrays and keyed fields that are not plain objects. */
function checkFieldShapes(
  where: string,
  candidate: Record<string, unknown>,
  lists: readonly string[],
  keyed: readonly string[],
): void {
  for (const field of lists) {
    if (candidate[field] !== undefined && !Array.isArray(candidate[field])) {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `${where}: ${field} must be an array (found ${describeArgument(candidate[field])})`,
      );
    }
  }
  for (const field of keyed) {
    const value = candidate[field];
    if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value))) {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `${where}: ${field} must be an object keyed by name (found ${describeArgument(value)})`,
      );
    }
  }
}

/** Refuses anything that is not a component `{ scheme, options, createEndpoint }`. */
export function checkComponent(component: unknown): asserts component is Component {
  const candidate = component as Partial<Component> | null;
  if (
    candidate === null ||
    typeof candidate !== "object" ||
    typeof candidate.scheme !== "string" ||
    typeof candidate.createEndpoint !== "function"
  ) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addComponent() expects a component { scheme, options, createEndpoint, traits? } (found ${describeArgument(component)})`,
    );
  }
  const traits: unknown = candidate.traits;
  if (
    traits !== undefined &&
    typeof traits !== "function" &&
    (typeof traits !== "object" ||
      traits === null ||
      typeof (traits as { inProcess?: unknown }).inProcess !== "boolean")
  ) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addComponent(): component '${candidate.scheme}' has traits that are not { inProcess: boolean, ... } or a function of the address (found ${describeArgument(traits)})`,
    );
  }
  const prefixes = candidate.headerPrefixes;
  if (
    prefixes !== undefined &&
    (!Array.isArray(prefixes) || prefixes.some((prefix) => typeof prefix !== "string" || prefix === ""))
  ) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addComponent(): component '${candidate.scheme}' option 'headerPrefixes' expects an array of non-empty texts (found ${describeArgument(prefixes)})`,
    );
  }
}

/** The `create` of `context.service(key, create)` under a string key, checked. */
export function checkServiceCreate<T>(
  key: string,
  create: ((context: RouteContext) => T) | undefined,
): (context: RouteContext) => T {
  if (typeof create === "function") return create;
  throw new RoutekitError(
    "PLUGIN_INVALID",
    `context.service('${truncateForMessage(key)}', create): a string key needs create, a function (context) => service (found ${describeArgument(create)}); or pass a key made by defineServiceKey(name, create)`,
  );
}
