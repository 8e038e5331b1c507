import type { CoreVerbs } from "../dsl/route-dsl.js";
import type { AnyVerbDescriptor } from "../dsl/verbs.js";
import { aggregateVerb } from "./aggregation/aggregate.js";
import { filterVerb, logVerb, processVerb, stopVerb, toVerb } from "./flow.js";
import { removeHeaderVerb, setBodyVerb, setHeaderVerb, setPropertyVerb, transformVerb } from "./message.js";
import { circuitBreakerVerb } from "./resilience/circuit-breaker.js";
import { doTryVerb } from "./resilience/do-try.js";
import { errorHandlerVerb } from "./resilience/error-handler.js";
import { idempotentConsumerVerb } from "./resilience/idempotent-consumer.js";
import { onExceptionVerb } from "./resilience/on-exception.js";
import { throttleVerb } from "./resilience/throttle.js";
import { descriptionVerb, routeIdVerb } from "./route-verbs.js";
import { choiceVerb } from "./routing/choice.js";
import { delayVerb } from "./routing/delay.js";
import { enrichVerb } from "./routing/enrich.js";
import { loopVerb } from "./routing/loop.js";
import { multicastVerb } from "./routing/multicast.js";
import { recipientListVerb } from "./routing/recipient-list.js";
import { sampleVerb } from "./routing/sample.js";
import { splitVerb } from "./routing/split.js";
import { wireTapVerb } from "./routing/wire-tap.js";
import { toDVerb } from "./to-dynamic.js";

/**
 * Every verb of core's DSL, under its method name. The type holds it to `CoreVerbs`: a verb whose
 * file declares a method there and is missing here (or listed here and declared nowhere) is a
 * type error. `installVerbs(CORE_VERBS)` (eips/index.ts) installs them.
 */
export const CORE_VERBS: { readonly [Name in keyof CoreVerbs<unknown>]: AnyVerbDescriptor } = {
  routeId: routeIdVerb,
  description: descriptionVerb,
  process: processVerb,
  to: toVerb,
  toD: toDVerb,
  setBody: setBodyVerb,
  transform: transformVerb,
  setHeader: setHeaderVerb,
  removeHeader: removeHeaderVerb,
  setProperty: setPropertyVerb,
  filter: filterVerb,
  log: logVerb,
  stop: stopVerb,
  choice: choiceVerb,
  split: splitVerb,
  aggregate: aggregateVerb,
  multicast: multicastVerb,
  recipientList: recipientListVerb,
  wireTap: wireTapVerb,
  enrich: enrichVerb,
  loop: loopVerb,
  delay: delayVerb,
  sample: sampleVerb,
  onException: onExceptionVerb,
  errorHandler: errorHandlerVerb,
  doTry: doTryVerb,
  throttle: throttleVerb,
  circuitBreaker: circuitBreakerVerb,
  idempotentConsumer: idempotentConsumerVerb,
};
