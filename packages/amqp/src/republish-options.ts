import { copyRecord } from "@routekit/core/internal";
import type { ConsumeMessage, Options } from "amqplib";

/**
 * Publish options that re-send a received message as it came (content type, persistence,
 * ids, headers...) with `extraHeaders` added. The reply-to and user id are not carried over:
 * a re-published message is not a request, and the broker checks the user id against the
 * connection's user.
 */
export function republishOptions(
  message: ConsumeMessage,
  extraHeaders: Record<string, unknown>,
): Options.Publish {
  const properties = message.properties;
  const options: Options.Publish = {
    headers: Object.assign(copyRecord(properties.headers ?? {}), extraHeaders),
  };
  if (properties.contentType !== undefined) options.contentType = properties.contentType;
  if (properties.contentEncoding !== undefined) options.contentEncoding = properties.contentEncoding;
  if (properties.deliveryMode !== undefined) options.deliveryMode = properties.deliveryMode;
  if (properties.priority !== undefined) options.priority = properties.priority;
  if (properties.correlationId !== undefined) options.correlationId = properties.correlationId;
  if (properties.messageId !== undefined) options.messageId = properties.messageId;
  if (properties.timestamp !== undefined) options.timestamp = properties.timestamp;
  if (properties.type !== undefined) options.type = properties.type;
  if (properties.appId !== undefined) options.appId = properties.appId;
  if (properties.expiration !== undefined) options.expiration = properties.expiration;
  return options;
}
