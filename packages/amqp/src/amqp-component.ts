import { type Component, defineComponent } from "@routekit/core";
import type { StopBudget } from "@routekit/core/internal";
import { AmqpConsumer, type ConsumerServices } from "./amqp-consumer.js";
import { type AmqpEndpointConfig, amqpOptionSchema, resolveAmqpEndpoint } from "./amqp-options.js";
import { createAmqpSend, type ProducerServices } from "./amqp-producer.js";
import { pause, type ReconnectOptions } from "./backoff.js";
import { ConfirmPublisher } from "./confirm-publisher.js";
import { ConnectionManager } from "./connection-manager.js";
import { RequestReplyClient } from "./request-reply-client.js";

/** Resolved settings of an `amqp` component. */
export interface AmqpSettings {
  readonly url: string;
  readonly reconnect: ReconnectOptions;
  /** How long starting a consumer waits for the broker before the start fails. */
  readonly connectTimeoutMs: number;
  /** Prefix of the connection names the broker shows. */
  readonly connectionName: string;
}

/** The `amqp:` component plus the close the plugin's lifecycle hook calls after routes stop. */
export interface AmqpComponent extends Component<typeof amqpOptionSchema> {
  /**
   * Lets deliveries in progress settle, then closes channels and connections (reopened on
   * demand). When `budget.signal` fires first, it stops waiting and destroys the sockets.
   */
  close(budget?: StopBudget): Promise<void>;
}

/** How long closing waits for deliveries in progress to settle before closing anyway. */
const DRAIN_LIMIT_MS = 10_000;

/**
 * Creates the `amqp:` component. Consumers and producers use separate connections (the
 * broker throttles publishing connections under memory pressure, which must not stall acks);
 * both are opened on first use.
 */
export function createAmqpComponent(settings: AmqpSettings): AmqpComponent {
  let consumerConnection: ConnectionManager | undefined;
  let producerConnection: ConnectionManager | undefined;
  let publisher: ConfirmPublisher | undefined;
  let requester: RequestReplyClient | undefined;
  const consumers = new Set<AmqpConsumer>();
  const manager = (role: string) =>
    new ConnectionManager({
      url: settings.url,
      name: `${settings.connectionName} ${role}`,
      reconnect: settings.reconnect,
    });
  const producerConnectionOf = () => {
    producerConnection ??= manager("producer");
    return producerConnection;
  };

  const producerServices: ProducerServices = {
    publisher: () => {
      publisher ??= new ConfirmPublisher(producerConnectionOf(), settings.reconnect);
      return publisher;
    },
    requester: () => {
      requester ??= new RequestReplyClient(producerConnectionOf(), settings.reconnect);
      return requester;
    },
  };
  const consumerServices: ConsumerServices = {
    reconnect: settings.reconnect,
    connectTimeoutMs: settings.connectTimeoutMs,
    connection: () => {
      consumerConnection ??= manager("consumer");
      return consumerConnection;
    },
    track: (consumer) => consumers.add(consumer),
  };

  const component = defineComponent({
    scheme: "amqp",
    options: amqpOptionSchema,
    // Message headers travel under their own names, to and from the broker.
    traits: { inProcess: false, messagingSystem: "rabbitmq", headerPrefixes: { received: "", sent: "" } },
    createEndpoint(address, context) {
      const config: AmqpEndpointConfig = resolveAmqpEndpoint(address);
      return {
        uri: address.uri,
        send: createAmqpSend(config, producerServices),
        createConsumer: (processor, route) =>
          new AmqpConsumer(config, processor, route.routeId, context, consumerServices),
      };
    },
  });

  const close = async (budget?: StopBudget): Promise<void> => {
    const signal = budget?.signal;
    const draining = [...consumers];
    consumers.clear();
    await untilAborted(Promise.all(draining.map((consumer) => consumer.stop())), signal);
    // The bound's timer ends with the wait: left running, it would keep the process alive.
    const drained = new AbortController();
    const bound = signal === undefined ? drained.signal : AbortSignal.any([signal, drained.signal]);
    await untilAborted(
      Promise.race([Promise.all(draining.map((consumer) => consumer.drain())), pause(DRAIN_LIMIT_MS, bound)]),
      signal,
    );
    drained.abort();
    const closing = [publisher?.close(), requester?.close()];
    publisher = undefined;
    requester = undefined;
    await untilAborted(Promise.all(closing), signal);
    // Past the stop's time the connections are destroyed rather than closed: a dead or frozen
    // broker connection never answers a close.
    const connections = [consumerConnection?.close(signal), producerConnection?.close(signal)];
    consumerConnection = undefined;
    producerConnection = undefined;
    await Promise.all(connections);
  };

  return { ...component, close };
}

/** Waits for `work`, or only until `signal` fires (whatever `work` does, it never rejects here). */
function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  if (signal === undefined) return settled;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = (): void => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
    settled.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
