import { randomUUID } from "node:crypto";

/** A random UUID made with the first id: what makes this process's ids unlike any other's. */
let prefix: string | undefined;
let sequence = 0;

/**
 * A new message id, unique across processes: a random UUID made once per process, then a
 * counter (`<uuid>-1`, `<uuid>-2`...). Cheaper than a UUID per message, which made a string of
 * hex pieces each time, and as unique: two processes share ids only if they drew the same UUID.
 */
export function nextMessageId(): string {
  prefix ??= randomUUID();
  sequence++;
  return `${prefix}-${sequence}`;
}
