import type { Exchange } from "../model/exchange.js";
import type { BoundedQueue } from "./bounded-queue.js";
import type { ConsumerRoute } from "./component.js";

/** A queued message; `done` is set when the producer waits for the consumer to finish. */
export interface SedaItem {
  exchange: Exchange;
  done: ((exchange: Exchange) => void) | undefined;
}

/** One seda name: a shared queue for competing consumers, or one queue per consumer route (pub-sub). */
export interface SedaChannel {
  readonly name: string;
  readonly capacity: number;
  shared: BoundedQueue<SedaItem>;
  subscribers: Map<string, BoundedQueue<SedaItem>> | undefined;
  /** The route consuming each queue: how a message it will never process is failed. */
  readonly rejectors: Map<BoundedQueue<SedaItem>, ConsumerRoute["reject"]>;
  /** InOut producers waiting for the consumer's reply. */
  readonly waiting: Set<WaitingReply>;
}

/** An InOut producer waiting for the consumer's reply. */
export interface WaitingReply {
  readonly exchange: Exchange;
  fail(error: Error): void;
}
