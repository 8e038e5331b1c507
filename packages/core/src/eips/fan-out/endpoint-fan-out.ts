import { checkBoolean, checkFunction, checkParallel, siteOf } from "../../dsl/option-checks.js";
import type { Recorder } from "../../dsl/verbs.js";
import { copyExchange } from "../../exchange/runtime-exchange.js";
import type { Processor } from "../../model/exchange.js";
import type { EndpointFanOutSettings } from "../../model/steps/routing-steps.js";
import type { AggregationStrategy } from "../aggregation/aggregation-strategies.js";
import type { FanOutPlan } from "./fan-out-run.js";

/** Options of `multicast` and `recipientList`. */
export interface MulticastOptions<TResult = unknown> {
  /** Send concurrently: true = at most 10 at once, a number = at most that many. Default false. */
  parallel?: boolean | number;
  /** Builds the result from the replies, in endpoint order. Default: the last endpoint's reply wins. */
  aggregate?: AggregationStrategy<TResult>;
  /** Stop at the first failing endpoint instead of sending to the rest. Default false. */
  stopOnError?: boolean;
}

/** One endpoint of a multicast or recipient list: its URI and the compiled `to(uri)` block. */
export interface EndpointBranch {
  readonly uri: string;
  readonly block: Processor;
}

/** Camel's default for multicast and recipient list: the last reply wins. */
const lastReplyWins: AggregationStrategy = (_previous, next) => next;

/** Checks the options shared by multicast and recipientList. */
export function checkEndpointFanOut(
  recorder: Recorder,
  verb: string,
  settings: Record<string, unknown>,
): EndpointFanOutSettings {
  return {
    parallel: checkParallel(siteOf(recorder, verb), settings.parallel),
    stopOnError: checkBoolean(siteOf(recorder, verb), "stopOnError", settings.stopOnError) ?? false,
    aggregate: checkFunction<AggregationStrategy>(siteOf(recorder, verb), "aggregate", settings.aggregate),
  };
}

/** A fan-out whose items are endpoint branches: each gets a copy of the original exchange. */
export function endpointPlan(
  routeId: string,
  label: string,
  verb: string,
  settings: EndpointFanOutSettings,
): FanOutPlan {
  return {
    routeId,
    label,
    verb,
    limit: settings.parallel,
    stopOnError: settings.stopOnError,
    aggregate: settings.aggregate ?? lastReplyWins,
    prepare: (run) => copyExchange(run.original),
    process: (part, item) => (item as EndpointBranch).block(part),
    name: (item) => (item as EndpointBranch).uri,
  };
}
