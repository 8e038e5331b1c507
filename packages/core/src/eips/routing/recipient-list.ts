import type { Endpoint } from "../../components/component.js";
import type { ExpressionOf } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { Exchange } from "../../model/exchange.js";
import type { RecipientListDefinition } from "../../model/steps/routing-steps.js";
import type { ContextInternals } from "../../runtime/context-internals.js";
import type { Sender } from "../../runtime/exchange-dispatch.js";
import { describeValue } from "../../support/describe-value.js";
import { DynamicEndpointCache, TO_DYNAMIC_CACHE_SIZE } from "../dynamic/dynamic-endpoint-cache.js";
import {
  checkEndpointFanOut,
  type EndpointBranch,
  endpointPlan,
  type MulticastOptions,
} from "../fan-out/endpoint-fan-out.js";
import { runFanOut } from "../fan-out/fan-out.js";
import { arraySource } from "../fan-out/part-source.js";
import { checkExpression, checkOptionKeys, invalid, siteOf } from "../option-checks.js";

/** Options of `recipientList`: those of `multicast`, the delimiter of a URI list in text, the cache size. */
export interface RecipientListOptions<TResult = unknown> extends MulticastOptions<TResult> {
  /** Separates URIs when the expression yields text. Default ",". */
  delimiter?: string;
  /**
   * Endpoints this step keeps, least recently used stopped and dropped first (Camel's
   * `cacheSize`). Default 1000; 0 keeps none (each message creates and drops its endpoints).
   */
  cacheSize?: number;
}

/** What a recipient list expression may yield: "a,b" text, an array or iterable of URIs, or nothing. */
export type Recipients = string | Iterable<string> | null | undefined;

const OPTIONS = ["parallel", "aggregate", "stopOnError", "delimiter", "cacheSize"] as const;

defineVerb(
  "recipientList",
  (recorder, expression: unknown, options?: unknown): RecipientListDefinition => {
    const uris = checkExpression(
      siteOf(recorder, "recipientList"),
      expression,
      "an expression yielding endpoint URIs",
    );
    const settings = checkOptionKeys(siteOf(recorder, "recipientList"), options, OPTIONS);
    const delimiter = settings.delimiter ?? ",";
    if (typeof delimiter !== "string" || delimiter === "") {
      throw invalid(
        siteOf(recorder, "recipientList"),
        `option 'delimiter' must be a non-empty string, found ${describeValue(delimiter)}`,
      );
    }
    const cacheSize = settings.cacheSize ?? TO_DYNAMIC_CACHE_SIZE;
    if (typeof cacheSize !== "number" || !Number.isSafeInteger(cacheSize) || cacheSize < 0) {
      throw invalid(
        siteOf(recorder, "recipientList"),
        `option 'cacheSize' must be a whole number >= 0, found ${describeValue(cacheSize)}`,
      );
    }
    return {
      type: "recipientList",
      expression: uris,
      delimiter,
      cacheSize,
      ...checkEndpointFanOut(recorder, "recipientList", settings),
    };
  },
  (definition, scope) => {
    const evaluate = scope.expression(definition.expression);
    const plan = endpointPlan(scope.routeId, scope.label, "recipientList", definition);
    const cache = new DynamicEndpointCache(scope.context as ContextInternals, definition.cacheSize, {
      routeId: scope.routeId,
      path: scope.label,
    });
    // Each copy is sent to the endpoint its branch resolved, through its send as the interceptors
    // wrapped it (`wrapSend`), by one step run under the route's error handling (so a failed send
    // is redelivered on its own).
    const targets = new WeakMap<Exchange, Sender>();
    const sendStep = scope.compileSteps(
      [{ type: "process", processor: (part) => targets.get(part)?.send(part), label: "to recipient" }],
      scope.label,
    );
    const where = `Route '${scope.routeId}' step ${scope.label}`;
    const branchFor = (uri: string, sender: Sender): EndpointBranch => ({
      uri,
      block: (part) => {
        targets.set(part, sender);
        return sendStep(part);
      },
    });
    const recipientsOf = (value: unknown): string[] => {
      if (value === null || value === undefined) return [];
      const items = typeof value === "string" ? value.split(definition.delimiter) : value;
      if (typeof items !== "object" || !(Symbol.iterator in items)) {
        throw new RoutekitError(
          "EXPRESSION_FAILED",
          `${where}: the recipient list expression yielded ${describeValue(value)}; expected "uri1,uri2" text or an array of URIs`,
        );
      }
      const uris: string[] = [];
      let index = 0;
      for (const item of items as Iterable<unknown>) {
        if (typeof item !== "string") {
          throw new RoutekitError(
            "EXPRESSION_FAILED",
            `${where}: recipient ${index} is ${describeValue(item)}, expected an endpoint URI`,
          );
        }
        const uri = item.trim();
        if (uri !== "") uris.push(uri);
        index++;
      }
      return uris;
    };
    const send = (exchange: Exchange, value: unknown): void | Promise<void> => {
      const uris = recipientsOf(value);
      if (uris.length === 0) return;
      // Every endpoint is resolved (and validated) before anything is sent, and held until the
      // fan-out ends, so the cache never stops an endpoint a copy is still being sent to.
      const held: Endpoint[] = [];
      const release = (): void => {
        for (const endpoint of held) cache.release(endpoint);
      };
      let sent: void | Promise<void>;
      try {
        const branches = uris.map((uri) => {
          const { endpoint, sender } = cache.acquire(uri);
          held.push(endpoint);
          return branchFor(uri, sender);
        });
        sent = runFanOut(plan, exchange, arraySource(branches));
      } catch (error) {
        release();
        throw error;
      }
      if (sent instanceof Promise) return sent.finally(release);
      release();
      return sent;
    };
    return (exchange) => {
      const value = evaluate(exchange);
      if (value instanceof Promise) return value.then((resolved: unknown) => send(exchange, resolved));
      return send(exchange, value);
    };
  },
);

declare module "../../dsl/route-dsl.js" {
  interface RouteDsl<TBody> {
    /**
     * Sends a copy of the exchange to each endpoint the expression yields for this exchange
     * ("a,b" text or an array), like `multicast`; no recipients: the exchange continues unchanged.
     */
    recipientList<TResult = TBody>(
      expression: ExpressionOf<TBody, Recipients | Promise<Recipients>>,
      options?: RecipientListOptions<TResult>,
    ): RouteDsl<TResult>;
  }
}
