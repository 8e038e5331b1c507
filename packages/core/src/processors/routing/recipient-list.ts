import { RoutekitError } from "../../errors.js";
import type { Exchange, Processor } from "../../exchange.js";
import { BoundedCache } from "../../expressions/bounded-cache.js";
import { describeValue } from "../../expressions/expression-errors.js";
import type { ExpressionInput } from "../../route-definition.js";
import type { ExpressionOf } from "../../route-dsl.js";
import { defineVerb } from "../../verbs.js";
import { checkExpression, checkOptions, invalid } from "./arguments.js";
import {
  checkEndpointFanOut,
  type EndpointBranch,
  type EndpointFanOutSettings,
  endpointPlan,
  type MulticastOptions,
} from "./endpoint-fan-out.js";
import { runFanOut } from "./fan-out.js";
import { arraySource } from "./part-source.js";

/** Options of `recipientList`: those of `multicast` plus the delimiter of a URI list in text. */
export interface RecipientListOptions<TResult = unknown> extends MulticastOptions<TResult> {
  /** Separates URIs when the expression yields text. Default ",". */
  delimiter?: string;
}

/** What a recipient list expression may yield: "a,b" text, an array or iterable of URIs, or nothing. */
export type Recipients = string | Iterable<string> | null | undefined;

type RecipientListDefinition = EndpointFanOutSettings & {
  readonly type: "eip:recipientList";
  readonly expression: ExpressionInput;
  readonly delimiter: string;
};

const OPTIONS = ["parallel", "aggregate", "stopOnError", "delimiter"] as const;
/** Compiled `to(uri)` blocks kept per step; recipient URIs are usually a small set. */
const CACHED_ENDPOINTS = 1000;

defineVerb(
  "recipientList",
  (recorder, expression: unknown, options?: unknown): RecipientListDefinition => {
    const uris = checkExpression(
      recorder,
      "recipientList",
      expression,
      "an expression yielding endpoint URIs",
    );
    const settings = checkOptions(recorder, "recipientList", options, OPTIONS);
    const delimiter = settings.delimiter ?? ",";
    if (typeof delimiter !== "string" || delimiter === "") {
      throw invalid(
        recorder,
        "recipientList",
        `option 'delimiter' must be a non-empty string, found ${describeValue(delimiter)}`,
      );
    }
    return {
      type: "eip:recipientList",
      expression: uris,
      delimiter,
      ...checkEndpointFanOut(recorder, "recipientList", settings),
    };
  },
  (definition, scope) => {
    const evaluate = scope.expression(definition.expression);
    const plan = endpointPlan(scope.routeId, scope.label, "recipientList", definition);
    const blocks = new BoundedCache<Processor>(CACHED_ENDPOINTS);
    const where = `Route '${scope.routeId}' step ${scope.label}`;
    const branchFor = (uri: string): EndpointBranch => {
      let block = blocks.get(uri);
      if (block === undefined) {
        block = scope.compileSteps([{ type: "to", uri }], scope.label);
        blocks.set(uri, block);
      }
      return { uri, block };
    };
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
      // Every endpoint is resolved (and validated) before anything is sent.
      return runFanOut(plan, exchange, arraySource(uris.map(branchFor)));
    };
    return (exchange) => {
      const value = evaluate(exchange);
      if (value instanceof Promise) return value.then((resolved: unknown) => send(exchange, resolved));
      return send(exchange, value);
    };
  },
  "eip:recipientList",
);

declare module "../../route-dsl.js" {
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
