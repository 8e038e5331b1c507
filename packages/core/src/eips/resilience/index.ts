// Resilience and error-handling EIPs: each file defines its verb (types, recording, compiling).
import "./on-exception.js";
import "./error-handler.js";
import "./do-try.js";
import "./throttle.js";
import "./circuit-breaker.js";
import "./idempotent-consumer.js";
