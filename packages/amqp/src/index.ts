// Plugin and component

// Message mapping
export { decodeBody, type EncodedBody, encodeBody, fromAmqpHeaders, toAmqpHeaders } from "./amqp-codec.js";
export { type AmqpComponent, type AmqpSettings, createAmqpComponent } from "./amqp-component.js";
// Errors
export { AmqpError, type AmqpErrorCode } from "./amqp-error.js";
export { amqpHeader, amqpProperty, ERROR_REPLY_TYPE } from "./amqp-headers.js";
// Endpoint options
export { type AmqpEndpointOptions, amqpOptionSchema } from "./amqp-options.js";
export { type AmqpPluginOptions, amqpPlugin } from "./amqp-plugin.js";
export type { ReconnectOptions } from "./backoff.js";
