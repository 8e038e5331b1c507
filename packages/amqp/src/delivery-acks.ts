import type { Channel, ConsumeMessage } from "amqplib";

/** Where a tracked delivery stands: its route still running, or its ack waiting to be sent. */
const RUNNING = 0;
const ACK_DUE = 1;
type DeliveryState = typeof RUNNING | typeof ACK_DUE;

/**
 * The acknowledgements of one consumer channel, sent in batches. A delivery is acknowledged only
 * once its route succeeded (`ack`), but the frame waits until the current turn of the event loop
 * has run (a broker's confirms arrive in batches, and many routes finish in the same turn): then
 * the acks due whose earlier deliveries are all settled go out as one `ack` with `multiple`,
 * and those behind a delivery still running go out one by one, so no ack waits for a slower
 * message. `multiple` never covers a running delivery, nor names a settled one. Settled
 * deliveries are forgotten at once (the broker no longer holds them, so a later `multiple` may
 * cover them harmlessly): what is tracked stays within the deliveries in flight.
 */
export class DeliveryAcks {
  readonly #channel: Channel;
  /** Deliveries running or with an ack due, in delivery order (the order of their tags). */
  readonly #deliveries = new Map<ConsumeMessage, DeliveryState>();
  #scheduled = false;
  readonly #flush = (): void => this.flush();

  constructor(channel: Channel) {
    this.#channel = channel;
  }

  /** Starts tracking a delivery whose route is about to run. */
  track(message: ConsumeMessage): void {
    this.#deliveries.set(message, RUNNING);
  }

  /** The delivery's route succeeded: acknowledge it with the next batch. */
  ack(message: ConsumeMessage): void {
    this.#deliveries.set(message, ACK_DUE);
    if (!this.#scheduled) {
      this.#scheduled = true;
      process.nextTick(this.#flush);
    }
  }

  /** Hands the delivery back (`requeue`) or rejects it, at once. Throws when the channel is gone. */
  nack(message: ConsumeMessage, requeue: boolean): void {
    this.#deliveries.delete(message);
    this.#channel.nack(message, false, requeue);
  }

  /**
   * Sends the acks due now. A channel that closed meanwhile sends nothing: the broker delivers
   * its unacknowledged messages again.
   */
  flush(): void {
    this.#scheduled = false;
    let last: ConsumeMessage | undefined;
    let due = 0;
    let settledSoFar = true;
    try {
      for (const [message, state] of this.#deliveries) {
        if (state === RUNNING) {
          settledSoFar = false;
        } else if (settledSoFar) {
          this.#deliveries.delete(message);
          last = message;
          due++;
        } else if (state === ACK_DUE) {
          this.#deliveries.delete(message);
          this.#channel.ack(message);
        }
      }
      if (last !== undefined) this.#channel.ack(last, due > 1);
    } catch {
      // The channel closed: nothing more can be acknowledged on it.
      this.#deliveries.clear();
    }
  }
}
