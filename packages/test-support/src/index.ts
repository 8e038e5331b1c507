export { type CollectingLogger, collectingLogger } from "./collecting-logger.js";
export { closedPort, LoopbackProxy } from "./loopback-proxy.js";
export {
  closeServer,
  type LoopbackHandler,
  type LoopbackOptions,
  type LoopbackServer,
  listen,
  listenOnLoopback,
  type RecordedRequest,
  startLoopbackServer,
} from "./loopback-server.js";
export { RequestGateProxy } from "./request-gate-proxy.js";
export {
  browserAvailable,
  CHROMIUM_PATH,
  howToStart,
  listening,
  missingServices,
  requiredByCi,
  SERVICE_PORTS,
  type ServiceName,
  servicesMissing,
  skipForMissing,
} from "./services.js";
export { recordSkip } from "./skip-record.js";
export { loadFactor, MAX_LOAD_FACTOR, scaledMs } from "./time-bound.js";
export { settlesWithin, waitFor } from "./wait-for.js";
