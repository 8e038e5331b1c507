export { type AddressVerdict, classifyAddress } from "./address-policy.js";
export { createDeadline, type Deadline } from "./deadline.js";
export { fetchText, type HttpFetchResult } from "./fetch-text.js";
export { createGuardedDispatcher, type GuardedDispatcherOptions } from "./guarded-dispatcher.js";
export { createGuardedLookup } from "./guarded-lookup.js";
export { HttpFetchError, type HttpFetchFailure } from "./http-fetch-error.js";
export {
  HTTP_FETCH_DEFAULTS,
  type HttpFetchOptions,
  type ResolvedHttpFetchOptions,
  resolveHttpFetchOptions,
} from "./http-fetch-options.js";
export {
  HTTP_FETCH_INPUT_SCHEMA,
  type HttpFetchHeaders,
  type HttpFetchStepResult,
  readHttpFetchUrl,
  runHttpFetch,
} from "./run-http-fetch.js";
