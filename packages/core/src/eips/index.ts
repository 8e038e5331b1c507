// Installs core's verbs from their one list (core-verbs.ts), once, when the package loads.
// The files that declare a verb's method on `CoreVerbs`, imported for their declarations: the
// emitted declarations keep a side-effect import (and drop an import used only in code), so this
// is how a project compiling against the published types sees every core verb. The core test
// `core-verb-declarations.test.ts` fails when a file declaring a method is missing here.
import "./aggregation/aggregate.js";
import "./resilience/circuit-breaker.js";
import "./resilience/do-try.js";
import "./resilience/error-handler.js";
import "./resilience/idempotent-consumer.js";
import "./resilience/on-exception.js";
import "./resilience/throttle.js";
import "./routing/choice.js";
import "./routing/delay.js";
import "./routing/enrich.js";
import "./routing/loop.js";
import "./routing/multicast.js";
import "./routing/recipient-list.js";
import "./routing/sample.js";
import "./routing/split.js";
import "./routing/wire-tap.js";
import { installVerbs } from "../dsl/verbs.js";
import { CORE_VERBS } from "./core-verbs.js";

installVerbs(CORE_VERBS);
