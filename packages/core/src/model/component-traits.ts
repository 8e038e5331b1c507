/**
 * What observers (tracing, the console) need to know about a component's endpoints, declared by
 * the component (`Component.traits`) instead of being guessed from its scheme: a new component
 * gets tracing and console support by declaring them, with no edit in those packages.
 */
export interface ComponentTraits {
  /**
   * True when the endpoint's messages never leave this process (`direct:`, `seda:`, `mock:`,
   * `log:`, `timer:`): nothing outside routekit reads trace context while it sends.
   */
  readonly inProcess: boolean;
  /**
   * The `messaging.system` of a messaging endpoint (`rabbitmq` for `amqp:`, `routekit` for
   * routekit's in-process queues); undefined for one that is not messaging (HTTP).
   */
  readonly messagingSystem?: string | undefined;
  /**
   * True when a send hands the sender's exchange itself to the consuming route (`direct:`, `mock:`):
   * no header needs to carry trace context, and the route runs under its caller.
   */
  readonly sameExchange?: boolean | undefined;
  /** False when a send only records the message (`log:`): it is not worth a span. Default true. */
  readonly traced?: boolean | undefined;
  /**
   * True when a send runs an agent (the `llm:` step's tool loop): observers show each run as an
   * agent run (an `invoke_agent` span, the console's agent runs).
   */
  readonly agent?: boolean | undefined;
  /** An HTTP endpoint: its routes serve requests (`server`), its sends are calls (`client`). */
  readonly http?: "client" | "server" | undefined;
  /** Where the protocol's own headers sit among the exchange's headers. */
  readonly headerPrefixes?: ComponentHeaderPrefixes | undefined;
}

/**
 * Prefixes of protocol headers among an exchange's headers: "" when they keep their own names (a
 * broker's message headers), undefined when the endpoint files none by prefix.
 */
export interface ComponentHeaderPrefixes {
  /** Under which a consumer files the headers it received (`http.header.` for an http: route). */
  readonly received?: string | undefined;
  /** Which headers a send writes to the protocol, by prefix (`http.request.header.` for an HTTP call). */
  readonly sent?: string | undefined;
}

/** The traits of a component that declares none: a remote endpoint, headers under their own names. */
export const DEFAULT_COMPONENT_TRAITS: ComponentTraits = { inProcess: false };
