import type { ToDynamicOptions } from "../dsl/route-dsl.js";
import { defineVerb } from "../dsl/verbs.js";
import { isCoreError, RoutekitError } from "../errors/errors.js";
import type { ExpressionInput } from "../model/route-definition.js";
import { compileAllowedEndpoints } from "../support/endpoint-allowlist.js";
import { redactUri } from "../support/redact-uri.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import {
  type DynamicEndpoint,
  DynamicEndpointCache,
  TO_DYNAMIC_CACHE_SIZE,
} from "./dynamic/dynamic-endpoint-cache.js";
import { compileDynamicUri } from "./dynamic/dynamic-uri.js";

const TO_DYNAMIC_OPTIONS: readonly string[] = ["raw", "cacheSize", "allowedEndpoints"];

const where = (route: { id: string; from: string }): string => `Route '${route.id || route.from}'`;

export const toDVerb = defineVerb({
  record: (recorder, uri: ExpressionInput<string>, options: ToDynamicOptions = {}) => {
    const route = where(recorder.route);
    if (typeof uri !== "string" && typeof uri !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${route}: toD() expects a URI template or a function (found ${typeof uri})`,
      );
    }
    if (typeof options !== "object" || options === null) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${route}: toD() options must be an object (found ${typeof options})`,
      );
    }
    const unknown = Object.keys(options).find((key) => !TO_DYNAMIC_OPTIONS.includes(key));
    if (unknown !== undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${route}: toD() has no option '${truncateForMessage(unknown)}' (expected raw, cacheSize or allowedEndpoints)`,
      );
    }
    const { allowedEndpoints } = options;
    // Checked now, so a bad list fails when the route is added.
    if (allowedEndpoints !== undefined)
      compileAllowedEndpoints(allowedEndpoints, `${route}: toD() option 'allowedEndpoints'`);
    const raw = options.raw ?? false;
    if (typeof raw !== "boolean") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${route}: toD() option 'raw' must be true or false (found ${typeof raw})`,
      );
    }
    const cacheSize = options.cacheSize ?? TO_DYNAMIC_CACHE_SIZE;
    if (typeof cacheSize !== "number" || !Number.isSafeInteger(cacheSize) || cacheSize < 0) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `${route}: toD() option 'cacheSize' must be a whole number >= 0 (found ${String(cacheSize)})`,
      );
    }
    return {
      type: "toD",
      uri,
      raw,
      cacheSize,
      ...(allowedEndpoints === undefined ? {} : { allowedEndpoints }),
    };
  },
  step: {
    type: "toD",
    compile: (definition, scope) => {
      const location = `Route '${scope.routeId}' step ${scope.label}`;
      const build = compileDynamicUri(definition.uri, definition.raw, location);
      // Each endpoint is sent to through its send as the interceptors wrapped it (`wrapSend`).
      const context = scope.context;
      const check =
        definition.allowedEndpoints === undefined
          ? context.allowedEndpoints
          : compileAllowedEndpoints(definition.allowedEndpoints, "the step's option 'allowedEndpoints'");
      const cache = new DynamicEndpointCache(
        context,
        definition.cacheSize,
        { routeId: scope.routeId, path: scope.label },
        check === undefined ? undefined : { check, where: location },
      );
      return (exchange) => {
        const uri = build(exchange);
        let resolved: DynamicEndpoint;
        try {
          resolved = cache.endpoint(uri);
        } catch (error) {
          throw withoutQuery(error, uri, location, definition.raw || typeof definition.uri === "function");
        }
        const { sender, dropAfterUse } = resolved;
        if (!dropAfterUse) return sender.send(exchange);
        const done = (): void => cache.drop(uri);
        try {
          const sent = sender.send(exchange);
          if (sent instanceof Promise) return sent.finally(done);
          done();
          return sent;
        } catch (error) {
          done();
          throw error;
        }
      };
    },
    shape: {
      endpoints: (definition) =>
        typeof definition.uri === "string" ? [{ uri: definition.uri, role: "template" }] : [],
      runsUserCode: false,
    },
  },
});

/**
 * An endpoint the built URI could not make: the message keeps the reason but shows the URI
 * without its query (option values may hold credentials) nor user info, and names the route and step.
 */
function withoutQuery(error: unknown, uri: string, location: string, raw: boolean): unknown {
  if (!isCoreError(error) || error.code === "ENDPOINT_NOT_ALLOWED") return error;
  const question = uri.indexOf("?");
  const shown = truncateForMessage(redactUri(question === -1 ? uri : `${uri.slice(0, question)}?…`));
  const message = question === -1 ? error.message : error.message.replaceAll(uri, shown);
  const hint =
    raw || (error.code !== "URI_INVALID" && error.code !== "COMPONENT_UNKNOWN")
      ? ""
      : " (toD encodes each ${...} value as one URI component; a value that is URI text itself needs toD(uri, { raw: true }))";
  return new RoutekitError(error.code, `${location}: toD built '${shown}': ${message}${hint}`, {
    cause: error,
    retryable: error.retryable,
  });
}
