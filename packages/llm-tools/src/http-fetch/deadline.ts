// The deadline every outbound call of this package uses: core's, which always fires on Node 20
// (a timeout signal inside AbortSignal.any can be garbage-collected first) and can be cleared.
export { createDeadline, type Deadline } from "@routekit/core/internal";
