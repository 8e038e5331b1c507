/** Headers routekit writes: the redelivery counter, and the error on dead-lettered messages and error replies. */
export const amqpHeader = {
  /** Times a failed message was re-published for another attempt. */
  redeliveries: "x-routekit-redeliveries",
  /** `Name: message` of the error that failed the message. */
  error: "x-routekit-error",
  /** The route that failed. */
  route: "x-routekit-route",
  /** The queue the message failed on. */
  queue: "x-routekit-queue",
  /** When the message was dead-lettered (ISO 8601). */
  failedAt: "x-routekit-failed-at",
} as const;

/** Names of the exchange properties a consumer sets (route-local: never sent on). */
export const amqpProperty = {
  queue: "amqp.queue",
  exchange: "amqp.exchange",
  routingKey: "amqp.routingKey",
  redelivered: "amqp.redelivered",
  redeliveries: "amqp.redeliveries",
  messageId: "amqp.messageId",
  correlationId: "amqp.correlationId",
} as const;

/** The name of an exchange property a consumer sets. */
export type AmqpPropertyName = (typeof amqpProperty)[keyof typeof amqpProperty];

/** The `type` property of a reply that reports a failed route. */
export const ERROR_REPLY_TYPE = "routekit.error";

/** Headers the broker owns or routekit counts with: never copied from a route's exchange. */
export function isReservedHeader(name: string): boolean {
  return (
    name === "x-death" ||
    name === "x-delivery-count" ||
    name.startsWith("x-first-death-") ||
    name.startsWith("x-last-death-") ||
    name === amqpHeader.redeliveries
  );
}
