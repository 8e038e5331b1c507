// @routekit/core/internal: the engine pieces routekit's own packages share (llm, llm-tools, http,
// amqp, mcp, otel). Unstable: names and signatures here may change in any release. Users program
// against "@routekit/core"; a package of your own that needs one of these is welcome to ask for
// it to become public.

// Budget internals
export { isBudget } from "./budget/budget.js";
export { BUDGET_DEFAULTS, type ResolvedBudgetOptions } from "./budget/budget-options.js";
// The context a step compiler gets (CompileScope.context)
export type { CompileContext } from "./compile/compile-context.js";
// Declaring verbs with their own step definition (defineStep is the public way): a descriptor
// (how a call records, how its step compiles, the step's shape), installed under its method name
export { type StepDescriptor, stepShape } from "./compile/step-compilers.js";
// Endpoint URIs
export { type ParsedUri, parseUri } from "./components/uri.js";
export type { CoreVerbs } from "./dsl/route-dsl.js";
export {
  type AnyVerbDescriptor,
  type CompileScope,
  defineVerb,
  installVerbs,
  type Recorder,
  type VerbDescriptor,
} from "./dsl/verbs.js";
// The shared stores' idempotency key limit (redis, postgres)
export { checkMaxKeyChars, DEFAULT_KEY_RETENTION_MS } from "./eips/resilience/idempotent-key.js";
export type { Abortable, DeadlineSet, SignalSource } from "./exchange/exchange-deadline.js";
// Caches of compiled untrusted text, bounded in entries and estimated bytes
export { BoundedCache, type CacheWeight } from "./expressions/bounded-cache.js";
// JSONPath and XPath over untrusted paths and documents (the json_path and xpath tools)
export {
  checkJsonPath,
  checkUntrustedJsonPath,
  checkUntrustedXPath,
  checkXmlShape,
  checkXPathSyntax,
  isMultiMatchPath,
  MAX_UNTRUSTED_DESCENTS,
  MAX_XML_ATTRIBUTES,
  MAX_XML_DEPTH,
  parseXml,
  refuseDoctype,
  UNTRUSTED_XPATH_FUNCTIONS,
} from "./expressions/index.js";
export { describeStep } from "./model/route-definition.js";
export type { NamedEndpoint, NestedBlock, StepShape } from "./model/step-shape.js";
// Deadlines that always fire on Node 20 and can be cleared
export { createDeadline, type Deadline } from "./runtime/deadline.js";
// Exchanges under a caller's own deadline (an MCP call's), and that deadline in the context's shutdown
export { createExchangeUnder, shutdownDeadlinesOf } from "./runtime/deadline-under-caller.js";
// Hearing the lines of routes' log steps with their exchange (MCP forwards them to the calling client)
export { type LogStepTap, logStepTapsOf } from "./exchange/log-step-taps.js";
// The selection rule of checkpoint stores' list (every store applies the same)
export { matchesQuery } from "./runtime/memory-checkpoint-store.js";
export { STOP_GRACE_MS } from "./runtime/stop-clock.js";
// Bounding the nesting of JSON from outside before parsing it
export {
  checkJsonDepth,
  DEFAULT_MAX_JSON_DEPTH,
  type JsonDepthExcess,
  jsonDepthMessage,
} from "./support/check-json-depth.js";
// Declarative checks of options objects given in code, with the package's own error
export {
  type CheckedOptions,
  checkOptions,
  expectedOf,
  type OptionCheck,
  type OptionChecks,
  type OptionsSite,
  optionError,
} from "./support/check-options.js";
// Copying headers and properties (not by spread: see copy-record.ts)
export { copyRecord } from "./support/copy-record.js";
// "Did you mean" hints and echoes of input in error messages, bounded in cost and length
export {
  type DidYouMeanOptions,
  didYouMean,
  MAX_SUGGESTED_NAME_CHARS,
  MAX_SUGGESTION_CANDIDATES,
  nearestName,
} from "./support/did-you-mean.js";
// Secrets under any component's header naming, in URIs and in values leaving the process
export { headerRedactor, headerSecrets, redactHeaders, redactValue } from "./support/redact-headers.js";
export { redactUri } from "./support/redact-uri.js";
export {
  declareHeaderPrefixes,
  headerBaseName,
  isSecretHeader,
  isSecretName,
} from "./support/secret-names.js";
// Option checks of the shared stores (redis, postgres)
export {
  STORE_NAME_PATTERN,
  type StoreOptionChecks,
  storeOptionChecks,
} from "./support/store-option-checks.js";
export { MESSAGE_ECHO_CHARS, truncateForMessage } from "./support/truncate-for-message.js";
