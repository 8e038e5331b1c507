/**
 * The message a hand-written baseline passes along: a plain object with a body and headers,
 * as a user writing the same code without routekit would allocate. No routekit object in it.
 */
export interface PlainMessage<TBody = unknown> {
  body: TBody;
  headers: Record<string, unknown>;
}
