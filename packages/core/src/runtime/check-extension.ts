import type { Component } from "../components/component.js";
import type { Plugin } from "./context-types.js";
import { RoutekitError } from "../errors/errors.js";

/** A short description of what was passed where an object was expected. */
export function describeArgument(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return `${typeof value} ${String(value)}`;
}

/** Refuses anything that is not a plugin `{ name, install(context) }`, saying what it got. */
export function checkPlugin(plugin: unknown): asserts plugin is Plugin {
  const candidate = plugin as Partial<Plugin> | null;
  if (
    candidate === null ||
    typeof candidate !== "object" ||
    typeof candidate.install !== "function" ||
    typeof candidate.name !== "string"
  ) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `context.use() expects a plugin { name, install(context) } (found ${describeArgument(plugin)})`,
    );
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
      `addComponent() expects a component { scheme, options, createEndpoint } (found ${describeArgument(component)})`,
    );
  }
}
