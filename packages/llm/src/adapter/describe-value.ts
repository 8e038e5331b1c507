import { truncateForMessage } from "@routekit/core/internal";

const MAX_KEYS = 6;
const MAX_TEXT = 40;

/** A short description of any value for error messages: `number 42`, `object { name, run }`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  switch (typeof value) {
    case "string":
      return `string ${JSON.stringify(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value)}`;
    case "number":
    case "boolean":
    case "bigint":
    case "symbol":
      return `${typeof value} ${String(value)}`;
    case "function":
      return describeFunction(value);
    default:
      return describeObject(value as object);
  }
}

function describeFunction(value: Function): string {
  const name = value.name === "" ? "(anonymous)" : value.name;
  return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? `class ${name}` : `function ${name}`;
}

function describeObject(value: object): string {
  if (Array.isArray(value)) return `array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  const prototype: unknown = Object.getPrototypeOf(value);
  const constructorName =
    prototype === null || prototype === Object.prototype ? undefined : nameOfConstructor(prototype);
  const keys = Object.keys(value);
  const shown =
    keys
      .slice(0, MAX_KEYS)
      .map((key) => truncateForMessage(key, MAX_TEXT))
      .join(", ") + (keys.length > MAX_KEYS ? ", …" : "");
  const body = keys.length === 0 ? "{}" : `{ ${shown} }`;
  return constructorName === undefined ? `object ${body}` : `${constructorName} instance ${body}`;
}

function nameOfConstructor(prototype: unknown): string {
  const owner: unknown = Reflect.get(prototype as object, "constructor");
  return typeof owner === "function" && owner.name !== "" ? owner.name : "object";
}
