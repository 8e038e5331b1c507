/** Exchange properties the routing EIPs set; readable by steps and expressions (`${property.split.index}`). */

/** 0-based index of a split part. */
export const SPLIT_INDEX = "split.index";
/** Number of parts: on every part when the source is an array, on the last part otherwise. */
export const SPLIT_SIZE = "split.size";
/** True on the last part of a split. */
export const SPLIT_COMPLETE = "split.complete";
/** Why an aggregated group completed: "size" | "timeout" | "interval" | "predicate" | "stop". */
export const AGGREGATE_COMPLETED_BY = "aggregate.completedBy";
/** How many exchanges a group aggregated. */
export const AGGREGATE_SIZE = "aggregate.size";
/** The correlation key of a group (its string form). */
export const AGGREGATE_CORRELATION_KEY = "aggregate.correlationKey";
/** 0-based iteration of a loop. */
export const LOOP_INDEX = "loop.index";
/** Number of iterations of a counted loop. */
export const LOOP_SIZE = "loop.size";
