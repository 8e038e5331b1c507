import { checkExpression, checkOptionKeys, invalid, siteOf } from "../../dsl/option-checks.js";
import type { ExpressionOf } from "../../dsl/route-dsl.js";
import { type CompileScope, defineVerb } from "../../dsl/verbs.js";
import type { Exchange, Processor } from "../../model/exchange.js";
import type { ProcessDefinition } from "../../model/steps/message-steps.js";
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
import { RecipientResolver } from "./recipient-resolver.js";

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

export const recipientListVerb = defineVerb({
  record: (recorder, expression: unknown, options?: unknown): RecipientListDefinition => {
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
  step: {
    type: "recipientList",
    compile: compileRecipientList,
    shape: {
      innerBlocks: () => [{ name: "send", suffix: "", options: {}, steps: [RECIPIENT_SEND_STEP] }],
      // Its endpoints are known only when it runs.
      runsUserCode: true,
    },
  },
});

/**
 * Each copy is sent to the endpoint its recipient resolved, through its send as the interceptors
 * wrapped it (`wrapSend`), by one step run under the route's error handling (so a failed send is
 * redelivered on its own). The step finds the sender of the copy it runs for: while `deliver` runs
 * the step, in `current`; when the step goes on later (a redelivery, an interceptor that waits), in
 * `later`, filled only then.
 */
const current: { part: Exchange | undefined; sender: Sender | undefined } = {
  part: undefined,
  sender: undefined,
};
const later = new WeakMap<Exchange, Sender>();

/** The step every recipient list compiles to send one copy (its shape declares it). */
const RECIPIENT_SEND_STEP: ProcessDefinition = {
  type: "process",
  processor: (part) => (part === current.part ? current.sender : later.get(part))?.send(part),
  label: "to recipient",
};

/** Runs the compiled send step for one copy, with its sender where the step finds it. */
function deliver(sendStep: Processor, part: Exchange, sender: Sender): void | Promise<void> {
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
}

function compileRecipientList(definition: RecipientListDefinition, scope: CompileScope): Processor {
  const evaluate = scope.expression(definition.expression);
  const context = scope.context;
  const check =
    definition.allowedEndpoints === undefined
      ? context.allowedEndpoints
      : compileAllowedEndpoints(definition.allowedEndpoints, "the step's option 'allowedEndpoints'");
  const where = `Route '${scope.routeId}' step ${scope.label}`;
  const cache = new DynamicEndpointCache(
    context,
    definition.cacheSize,
    { routeId: scope.routeId, path: scope.label },
    check === undefined ? undefined : { check, where },
  );
  const sendStep = scope.compileSteps([RECIPIENT_SEND_STEP], scope.label);
  // The items of the fan-out are the resolved recipients (each has its URI, for failure locations).
  const plan: FanOutPlan = {
    ...endpointPlan(scope.routeId, scope.label, "recipientList", definition),
    process: (part, item) => deliver(sendStep, part, (item as DynamicEndpoint).sender),
  };
  const recipients = new RecipientResolver(cache, definition.delimiter, where);
  const send = (exchange: Exchange, value: unknown): void | Promise<void> => {
    const uris = recipients.uris(value);
    if (uris.length === 0) return;
    const resolved = recipients.resolve(uris);
    const holds = recipients.holds;
    let sent: void | Promise<void>;
    try {
      sent = runFanOut(plan, exchange, arraySource(resolved));
    } catch (error) {
      if (holds) recipients.releaseAll(resolved);
      throw error;
    }
    if (!holds) return sent;
    if (sent instanceof Promise) return sent.finally(() => recipients.releaseAll(resolved));
    recipients.releaseAll(resolved);
    return sent;
  };
  return (exchange) => {
    const value = evaluate(exchange);
    if (value instanceof Promise) return value.then((resolved: unknown) => send(exchange, resolved));
    return send(exchange, value);
  };
}

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
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
