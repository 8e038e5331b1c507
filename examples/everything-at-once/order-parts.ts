// What the gateway's tool and the worker agree on: the message, the queue options, the group size.

/** What the `record_part` tool sends to the worker: one part of an order. */
export interface Part {
  readonly order: string;
  readonly part: string;
}

/** A group one of the worker's aggregators completed, and on which store. */
export interface Completion {
  readonly store: "redis" | "postgres";
  readonly order: string;
  readonly parts: readonly string[];
}

/** Parts per order: a group completes when both parts of its order arrived. */
export const PARTS_PER_ORDER = 2;

/** The run's queue (and its dead-letter queue) go away when the worker's consumer stops. */
export const TEMPORARY_QUEUE = "autoDelete=true&durable=false";
