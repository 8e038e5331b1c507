import type { StepDefinition } from "./step-definition.js";

/** A block of steps held by a step, as its compile function labels it. */
export interface NestedBlock {
  /** The block's name in a description: `steps`, `when #1`, `otherwise`, `catch[0]`, `fallback`. */
  readonly name: string;
  /** Appended to the step's path to make the block's path (`""` or `" when #1"`). */
  readonly suffix: string;
  /** What a description shows beside the block (a branch's predicate, a catch's errors). */
  readonly options: { readonly [name: string]: unknown };
  readonly steps: readonly StepDefinition[];
}

/**
 * An endpoint a step names when the route is built. `send`: the step itself sends the exchange
 * (or a copy) there each time it runs (`to`, `wireTap`, `enrich`); `fan-out`: one of the endpoints
 * it sends copies to through steps of its own (`multicast`); `template`: a URI template filled per
 * exchange (`toD`); `dead-letter`: where it moves what it gives up on (`aggregate`'s recovery).
 */
export interface NamedEndpoint {
  readonly uri: string;
  readonly role: "send" | "fan-out" | "template" | "dead-letter";
}

/**
 * What a step is made of, read by everything that walks routes without running them: `describe()`,
 * the compiler (which holds the compile function to it), tracing and the console. Each verb's
 * descriptor declares it next to its compile function; nothing else lists a step's blocks,
 * endpoints or code.
 */
export interface StepShape<TDefinition = StepDefinition> {
  /**
   * True when the step takes over the steps after it in its block (the compiler hands them to it,
   * labelled under its own path): `filter` without a block, `aggregate`, `idempotentConsumer`.
   * Absent means never.
   */
  takesRestOfBlock?(definition: TDefinition): boolean;
  /** The blocks the route's author recorded inside the step, in the order they are described. */
  blocks?(definition: TDefinition): readonly NestedBlock[];
  /**
   * Blocks the compile function makes of its own (multicast's one `to` per endpoint): they run and
   * are intercepted like any step, and are not described.
   */
  innerBlocks?(definition: TDefinition): readonly NestedBlock[];
  /** The endpoints the step names. */
  endpoints?(definition: TDefinition): readonly NamedEndpoint[];
  /**
   * True when running the step may run code its definition does not show as data: a processor, a
   * repository, event listeners, another package's step, or sends to endpoints known only when it
   * runs. Functions inside the definition (an expression written as a function) count on their own.
   */
  readonly runsUserCode: boolean;
}
