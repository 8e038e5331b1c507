/**
 * The header carrying an effect's key: the same on every retry of one effect (a durable run's tool
 * call sets it to run id, turn and call id), different for every other effect. Producers hand it to
 * the receiving system so it can deduplicate too: `http:` as the `Idempotency-Key` request header,
 * `amqp:` as the message's `message-id`.
 */
export const EFFECT_KEY_HEADER = "routekit.effectKey";
