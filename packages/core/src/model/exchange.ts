/**
 * The context an exchange belongs to. Its members are declared where they are implemented — the
 * runtime's `RouteContextBase`, and packages by declaration merging (`@routekit/llm` adds
 * `tools`) — so this model file depends on nothing.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging
export interface RouteContext {}

/** InOnly: fire and forget. InOut: the caller waits for the reply (the exchange's body after the route). */
export type ExchangePattern = "InOnly" | "InOut";

/** Message headers: travel with the message, also to brokers. */
export type Headers = Record<string, unknown>;

/**
 * One message moving through routes. Camel's separate Out message is folded into `body`.
 *
 * Split parts, multicast and recipient list copies, and copies made with `copyExchange` name the
 * exchange they were made from in `parentId`; other exchanges (made by a consumer or
 * `createExchange`, a wire tap's) have none.
 */
export interface Exchange<TBody = unknown> {
  readonly id: string;
  /** The id of the exchange this one was made from (split part, multicast/recipientList copy); undefined otherwise. */
  readonly parentId?: string | undefined;
  body: TBody;
  headers: Headers;
  /** Route-local state, never sent to another process. */
  properties: Record<string, unknown>;
  pattern: ExchangePattern;
  /** Set when a step failed; routing stops unless an error handler clears it. */
  error: Error | undefined;
  readonly context: RouteContext;
  /** Fires when the exchange times out or the context stops past its grace period. */
  readonly signal: AbortSignal;
  /** The route currently processing the exchange, when there is one. */
  routeId: string | undefined;
  /** The URI of the endpoint the exchange came from. */
  fromEndpoint: string | undefined;
}

/**
 * A message body as it arrived, bytes and the content type saying how to read them, with the
 * function that reads them: see `createExchange({ wire })`. `decode` may throw for bytes it cannot read.
 */
export interface WireBody {
  readonly content: Uint8Array;
  readonly contentType: string | undefined;
  readonly decode: (content: Uint8Array, contentType: string | undefined) => unknown;
}

/** A step: may complete synchronously (no promise allocated) or return a promise. */
export type Processor<TBody = unknown> = (exchange: Exchange<TBody>) => void | Promise<void>;
