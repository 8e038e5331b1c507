import { type EndpointAddress, EndpointOptionError, type OptionSchema, RoutekitError } from "@routekit/core";
import { type OptionsOf, truncateForMessage } from "@routekit/core/internal";

/** The options an `amqp:` URI accepts. */
export const amqpOptionSchema = {
  prefetch: {
    type: "integer",
    default: 10,
    min: 1,
    max: 65535,
    description: "Unacknowledged messages per consumer",
  },
  concurrentConsumers: {
    type: "integer",
    default: 1,
    min: 1,
    max: 64,
    description: "Consumer channels per route",
  },
  durable: { type: "boolean", default: true, description: "Queues and exchanges survive a broker restart" },
  autoDelete: {
    type: "boolean",
    default: false,
    description: "Delete the queue when its last consumer leaves",
  },
  maxRedeliveries: { type: "integer", default: 3, min: 0, description: "Redeliveries of a failed message" },
  maxJsonDepth: {
    type: "integer",
    default: 128,
    min: 1,
    max: 100000,
    description: "Deepest nesting of a received JSON body; a deeper one fails to decode",
  },
  deadLetter: {
    type: "boolean",
    default: true,
    description: "Move exhausted messages to the dead-letter queue",
  },
  deadLetterQueue: { type: "string", description: "Dead-letter queue (default: the queue's name + '.dlq')" },
  requestTimeout: {
    type: "integer",
    default: 30000,
    min: 1,
    description: "Milliseconds an InOut send waits",
  },
  sendTimeout: {
    type: "integer",
    default: 30000,
    min: 1,
    description: "Milliseconds a send waits for a confirm",
  },
  routingKey: {
    type: "string",
    description: "Routing key (exchange endpoints): publish key and binding key",
  },
  exchangeType: {
    type: "enum",
    values: ["direct", "topic", "fanout", "headers"],
    description: "Exchange type (default direct)",
  },
  queue: { type: "string", description: "Queue an exchange consumer binds (default: a private queue)" },
  persistent: { type: "boolean", default: true, description: "Messages are written to disk by the broker" },
  contentType: { type: "string", description: "Content type of sent messages (default: from the body)" },
  mandatory: {
    type: "boolean",
    default: false,
    description: "A send fails when no queue receives the message",
  },
  exchangePattern: {
    type: "enum",
    values: ["InOnly", "InOut"],
    description: "Overrides the exchange's pattern when sending (InOut waits for a reply)",
  },
} as const satisfies OptionSchema;

/** Parsed `amqp:` options. */
export type AmqpEndpointOptions = OptionsOf<typeof amqpOptionSchema>;

/** What an `amqp:` endpoint addresses, resolved from its URI. */
export type AmqpTarget =
  | { readonly kind: "queue"; readonly queue: string }
  | {
      readonly kind: "exchange";
      readonly exchange: string;
      readonly exchangeType: "direct" | "topic" | "fanout" | "headers";
      /** Routing key used when publishing. */
      readonly routingKey: string;
      /** Binding key used by consumers. */
      readonly bindingKey: string;
      /** The queue consumers bind; undefined = a private, server-named queue. */
      readonly queue: string | undefined;
    };

/** An endpoint's resolved configuration. */
export interface AmqpEndpointConfig {
  readonly uri: string;
  readonly target: AmqpTarget;
  readonly options: AmqpEndpointOptions;
}

const EXCHANGE_ONLY = ["routingKey", "exchangeType", "queue"] as const;

/** Resolves an `amqp:queue:NAME` or `amqp:exchange:NAME` address; fails naming what is wrong. */
export function resolveAmqpEndpoint(address: EndpointAddress<AmqpEndpointOptions>): AmqpEndpointConfig {
  const { uri, path, options } = address;
  const colon = path.indexOf(":");
  const kind = colon === -1 ? path : path.slice(0, colon);
  const name = colon === -1 ? "" : path.slice(colon + 1);
  if (kind !== "queue" && kind !== "exchange") {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint '${truncateForMessage(uri)}': expected 'amqp:queue:NAME' or 'amqp:exchange:NAME' (found path '${truncateForMessage(path)}')`,
    );
  }
  if (name === "" || name.length > 255) {
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint '${truncateForMessage(uri)}': the ${kind} name must be 1 to 255 characters (found '${truncateForMessage(name)}')`,
    );
  }
  if (kind === "queue") {
    for (const option of EXCHANGE_ONLY) {
      if (options[option] !== undefined) {
        throw new EndpointOptionError(
          uri,
          option,
          `Endpoint '${uri}': option '${option}' applies to 'amqp:exchange:' endpoints only; a queue endpoint publishes to the queue itself`,
        );
      }
    }
    return { uri, target: { kind, queue: name }, options };
  }
  const exchangeType = options.exchangeType ?? "direct";
  const bindingDefault = exchangeType === "topic" ? "#" : "";
  const target: AmqpTarget = {
    kind,
    exchange: name,
    exchangeType,
    routingKey: options.routingKey ?? "",
    bindingKey: options.routingKey ?? bindingDefault,
    queue: options.queue === "" ? undefined : options.queue,
  };
  return { uri, target, options };
}

/** The queue a consumer of this endpoint reads (undefined: a private queue named by the broker). */
export function consumedQueue(config: AmqpEndpointConfig): string | undefined {
  return config.target.queue;
}
