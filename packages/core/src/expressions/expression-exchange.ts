/**
 * The view of an exchange that expressions read. Core's `Exchange` satisfies it, and so does a
 * plain object, which keeps expressions testable without a running context.
 */
export interface ExpressionExchange {
  readonly id: string;
  body: unknown;
  headers: Record<string, unknown>;
  properties: Record<string, unknown>;
  error?: Error | undefined;
  pattern?: string;
  routeId?: string | undefined;
  fromEndpoint?: string | undefined;
}

/** An expression as users write it: simple-language text, or a function of the exchange. */
export type Expression<TResult = unknown, TExchange extends ExpressionExchange = ExpressionExchange> =
  | string
  | ((exchange: TExchange) => TResult);

/** An expression compiled once, evaluated per exchange. */
export type CompiledExpression<
  TResult = unknown,
  TExchange extends ExpressionExchange = ExpressionExchange,
> = (exchange: TExchange) => TResult;
