import { EndpointOptionError, RoutekitError } from "../errors/errors.js";
import { didYouMean } from "../support/did-you-mean.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import type { OptionSchema, OptionSpec, OptionsOf } from "./endpoint-options.js";

/** An endpoint URI split into its parts; option values are still text. */
export interface ParsedUri {
  readonly uri: string;
  readonly scheme: string;
  readonly path: string;
  readonly query: ReadonlyMap<string, string>;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*$/;

/** Splits `scheme:path?options`. Fails with URI_INVALID naming the URI and what is wrong. */
export function parseUri(uri: string): ParsedUri {
  if (typeof uri !== "string" || uri.trim() === "") {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint URI must be a non-empty string like 'direct:name' (found ${truncateForMessage(JSON.stringify(uri))})`,
    );
  }
  const colon = uri.indexOf(":");
  if (colon <= 0) {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint URI '${truncateForMessage(uri)}' has no scheme: expected 'scheme:path', e.g. 'direct:orders'`,
    );
  }
  const scheme = uri.slice(0, colon);
  if (!SCHEME.test(scheme)) {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint URI '${truncateForMessage(uri)}' has an invalid scheme '${truncateForMessage(scheme)}'`,
    );
  }
  const rest = uri.slice(colon + 1);
  const questionMark = rest.indexOf("?");
  const path = questionMark === -1 ? rest : rest.slice(0, questionMark);
  const query = new Map<string, string>();
  if (questionMark !== -1) {
    for (const part of rest.slice(questionMark + 1).split("&")) {
      if (part === "") continue;
      const equals = part.indexOf("=");
      const name = decode(uri, equals === -1 ? part : part.slice(0, equals));
      const value = equals === -1 ? "" : decode(uri, part.slice(equals + 1));
      if (query.has(name)) {
        throw new EndpointOptionError(
          uri,
          name,
          `Endpoint '${truncateForMessage(uri)}': option '${truncateForMessage(name)}' is given twice`,
        );
      }
      query.set(name, value);
    }
  }
  return { uri, scheme, path, query };
}

function decode(uri: string, text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint URI '${truncateForMessage(uri)}' has a malformed escape in '${truncateForMessage(text)}'`,
    );
  }
}

/** Validates the query of a parsed URI against a component's option schema. */
export function parseOptions<TSchema extends OptionSchema>(
  parsed: ParsedUri,
  schema: TSchema,
): OptionsOf<TSchema> {
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (spec.default !== undefined) options[name] = spec.default;
  }
  const names = Object.keys(schema);
  for (const [name, text] of parsed.query) {
    const spec = schema[name];
    if (spec === undefined) {
      const valid = names.length === 0 ? "it takes no options" : `valid options: ${names.join(", ")}`;
      throw new EndpointOptionError(
        parsed.uri,
        name,
        `Endpoint '${truncateForMessage(parsed.uri)}': unknown option '${truncateForMessage(name)}'${didYouMean(name, names)}; ${valid}`,
      );
    }
    options[name] = convert(parsed.uri, name, text, spec);
  }
  return options as OptionsOf<TSchema>;
}

function convert(uri: string, name: string, text: string, spec: OptionSpec): unknown {
  const fail = (expected: string): never => {
    throw new EndpointOptionError(
      uri,
      name,
      `Endpoint '${truncateForMessage(uri)}': option '${truncateForMessage(name)}' expects ${expected} (found '${truncateForMessage(text)}')`,
    );
  };
  switch (spec.type) {
    case "string":
      return text;
    case "boolean":
      if (text === "true" || text === "") return true;
      if (text === "false") return false;
      return fail("true or false");
    case "integer":
    case "number": {
      const value = Number(text);
      if (text.trim() === "" || !Number.isFinite(value))
        return fail(spec.type === "integer" ? "an integer" : "a number");
      if (spec.type === "integer" && !Number.isInteger(value)) return fail("an integer");
      if (spec.min !== undefined && value < spec.min) return fail(`a value >= ${spec.min}`);
      if (spec.max !== undefined && value > spec.max) return fail(`a value <= ${spec.max}`);
      return value;
    }
    case "enum":
      if (!spec.values.includes(text))
        return fail(`one of ${spec.values.join(", ")}${didYouMean(text, spec.values)}`);
      return text;
    case "list":
      return text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
  }
}
