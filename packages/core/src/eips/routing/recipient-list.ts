import { checkExpression, checkOptionKeys, invalid, siteOf } from "../../dsl/option-checks.js";
import type { ExpressionOf } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { Exchange } from "../../model/exchange.js";
import type { RecipientListDefinition } from "../../model/steps/routing-steps.js";
import type { Sender } from "../../runtime/exchange-dispatch.js";
import { describeValue } from "../../support/describe-value.js";
import { type AllowedEndpoints, compileAllowedEndpoints } from "../../support/endpoint-allowlist.js";
import {
  type DynamicEndpoint,
  DynamicEndpointCache,
  TO_DYNAMIC_CACHE_SIZE,
} from "../dynamic/dynamic-endpoint-cache.js";
import { checkEndpointFanOut, endpointPlan, type MulticastOptions } from "../fan-out/endpoint-fan-out.js";
import { runFanOut } from "../fan-out/fan-out.js";
import type { FanOutPlan } from "../fan-out/fan-out-run.js";
import { arraySource } from "../fan-out/part-source.js";

/** Options of `recipientList`: those of `multicast`, the delimiter of a URI list in text, the cache size. */
export interface RecipientListOptions<TResult = unknown> extends MulticastOptions<TResult> {
  /** Separates URIs when the expression yields text. Default ",". */
  delimiter?: string;
  /**
   * Endpoints this step keeps, least recently used stopped and dropped first (Camel's
   * `cacheSize`). Default 1000; 0 keeps none (each message creates and drops its endpoints).
   */
  cacheSize?: number;
  /**
   * The endpoints this step may send to, checked on each recipient URI (scheme, path and options)
   * before any endpoint is made: patterns such as `"seda:*"`, `"http://api.example/*"` or a
   * predicate (see `AllowedEndpoints`). Default: the context's `allowedEndpoints`, if any.
   */
  allowedEndpoints?: AllowedEndpoints;
}

/** What a recipient list expression may yield: "a,b" text, an array or iterable of URIs, or nothing. */
export type Recipients = string | Iterable<string> | null | undefined;

const OPTIONS = [
  "parallel",
  "aggregate",
  "stopOnError",
  "delimiter",
  "cacheSize",
  "allowedEndpoints",
] as const;

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
    const allowedEndpoints = settings.allowedEndpoints as AllowedEndpoints | undefined;
    // Checked now, so a bad list fails when the route is added.
    if (allowedEndpoints !== undefined) {
      const site = siteOf(recorder, "recipientList");
      compileAllowedEndpoints(allowedEndpoints, `${site.where}: recipientList() option 'allowedEndpoints'`);
    }
    return {
      type: "recipientList",
      expression: uris,
      delimiter,
      cacheSize,
      ...(allowedEndpoints === undefined ? {} : { allowedEndpoints }),
      ...checkEndpointFanOut(recorder, "recipientList", settings),
    };
  },
  (definition, scope) => {
    const evaluate = scope.expression(definition.expression);
    const context = scope.context;
    const check =
      definition.allowedEndpoints === undefined
        ? context.allowedEndpoints
        : compileAllowedEndpoints(definition.allowedEndpoints, "the step's option 'allowedEndpoints'");
    const cache = new DynamicEndpointCache(
      context,
      definition.cacheSize,
      { routeId: scope.routeId, path: scope.label },
      check === undefined ? undefined : { check, where: `Route '${scope.routeId}' step ${scope.label}` },
    );
    // Each copy is sent to the endpoint its recipient resolved, through its send as the
    // interceptors wrapped it (`wrapSend`), by one step run under the route's error handling (so a
    // failed send is redelivered on its own). The step finds the sender of the copy it runs for:
    // while `deliver` runs the step, in `current`; when the step goes on later (a redelivery, an
    // interceptor that waits), in `later`, filled only then.
    const current: { part: Exchange | undefined; sender: Sender | undefined } = {
      part: undefined,
      sender: undefined,
    };
    const later = new WeakMap<Exchange, Sender>();
    const sendStep = scope.compileSteps(
      [
        {
          type: "process",
          processor: (part) => (part === current.part ? current.sender : later.get(part))?.send(part),
          label: "to recipient",
        },
      ],
      scope.label,
    );
    const deliver = (part: Exchange, sender: Sender): void | Promise<void> => {
      // A recipient's route may run this step again (for another exchange) before it returns.
      const outerPart = current.part;
      const outerSender = current.sender;
      current.part = part;
      current.sender = sender;
      let result: void | Promise<void>;
      try {
        result = sendStep(part);
      } finally {
        current.part = outerPart;
        current.sender = outerSender;
      }
      if (result instanceof Promise) later.set(part, sender);
      return result;
    };
    // The items of the fan-out are the resolved recipients (each has its URI, for failure locations).
    const plan: FanOutPlan = {
      ...endpointPlan(scope.routeId, scope.label, "recipientList", definition),
      process: (part, item) => deliver(part, (item as DynamicEndpoint).sender),
    };
    const where = `Route '${scope.routeId}' step ${scope.label}`;
    // The last recipients, kept so a message with the same ones as the one before (a fixed list,
    // the common case) reuses their arrays instead of making new ones: the last text and its URIs,
    // and the last URIs resolved, their endpoints and whether any of them is held.
    let lastText: string | undefined;
    let lastTextUris: readonly string[] = [];
    let lastUris: readonly string[] = [];
    let lastResolved: readonly DynamicEndpoint[] = [];
    let lastHolds = false;
    const recipientsOf = (value: unknown): readonly string[] => {
      if (value === null || value === undefined) return [];
      if (value === lastText) return lastTextUris;
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
      const result = sameUris(uris, lastUris) ? lastUris : uris;
      if (typeof value === "string") {
        lastText = value;
        lastTextUris = result;
      }
      return result;
    };
    const releaseAll = (resolved: readonly DynamicEndpoint[]): void => {
      for (const recipient of resolved) cache.release(recipient);
    };
    /**
     * Every endpoint resolved (and validated) before anything is sent, held until the fan-out
     * ends, so the cache never stops an endpoint a copy is still being sent to.
     */
    const resolve = (uris: readonly string[]): readonly DynamicEndpoint[] => {
      const previous = uris === lastUris ? lastResolved : undefined;
      // Made only when a recipient differs from the last message's.
      let resolved: DynamicEndpoint[] | undefined;
      for (let index = 0; index < uris.length; index++) {
        let recipient: DynamicEndpoint;
        try {
          recipient = cache.acquire(uris[index]!);
        } catch (error) {
          releaseAll(resolved ?? previous?.slice(0, index) ?? []);
          throw error;
        }
        if (resolved !== undefined) resolved.push(recipient);
        else if (previous?.[index] !== recipient) {
          resolved = previous === undefined ? [] : previous.slice(0, index);
          resolved.push(recipient);
        }
      }
      if (resolved === undefined) return previous!;
      lastUris = uris;
      lastResolved = resolved;
      lastHolds = resolved.some((recipient) => recipient.created);
      return resolved;
    };
    const send = (exchange: Exchange, value: unknown): void | Promise<void> => {
      const uris = recipientsOf(value);
      if (uris.length === 0) return;
      const resolved = resolve(uris);
      // resolve() left whether any of them is held (an endpoint this step created) in lastHolds.
      const holds = lastHolds;
      let sent: void | Promise<void>;
      try {
        sent = runFanOut(plan, exchange, arraySource(resolved));
      } catch (error) {
        if (holds) releaseAll(resolved);
        throw error;
      }
      if (!holds) return sent;
      if (sent instanceof Promise) return sent.finally(() => releaseAll(resolved));
      releaseAll(resolved);
      return sent;
    };
    return (exchange) => {
      const value = evaluate(exchange);
      if (value instanceof Promise) return value.then((resolved: unknown) => send(exchange, resolved));
      return send(exchange, value);
    };
  },
);

/** Whether two recipient lists name the same URIs in the same order. */
function sameUris(uris: readonly string[], other: readonly string[]): boolean {
  if (uris.length !== other.length) return false;
  for (let index = 0; index < uris.length; index++) if (uris[index] !== other[index]) return false;
  return true;
}

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
