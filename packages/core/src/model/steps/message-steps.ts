import type { AllowedEndpoints } from "../../support/endpoint-allowlist.js";
import type { Processor } from "../exchange.js";
import type { ExpressionInput, LogLevel } from "../step-inputs.js";

/** `process(fn, label?)`: runs a function on the exchange. */
export interface ProcessDefinition {
  readonly type: "process";
  readonly processor: Processor;
  readonly label?: string;
}

/** `to(uri)`: sends to an endpoint; a request-reply endpoint's reply becomes the body. */
export interface ToDefinition {
  readonly type: "to";
  readonly uri: string;
}

/** `toD(uri, options)`: like `to`, with a URI computed per exchange. */
export interface ToDynamicDefinition {
  readonly type: "toD";
  readonly uri: ExpressionInput<string>;
  readonly raw: boolean;
  readonly cacheSize: number;
  /** The endpoints it may resolve (checked when recorded); undefined: the context's default. */
  readonly allowedEndpoints?: AllowedEndpoints;
}

/** `setBody(expression)`. */
export interface SetBodyDefinition {
  readonly type: "setBody";
  readonly expression: ExpressionInput;
}

/** `transform(expression)`: the same as `setBody`, Camel's name for a message translation. */
export interface TransformDefinition {
  readonly type: "transform";
  readonly expression: ExpressionInput;
}

/** `setHeader(name, expression)`. */
export interface SetHeaderDefinition {
  readonly type: "setHeader";
  readonly name: string;
  readonly expression: ExpressionInput;
}

/** `removeHeader(name)`. */
export interface RemoveHeaderDefinition {
  readonly type: "removeHeader";
  readonly name: string;
}

/** `setProperty(name, expression)`. */
export interface SetPropertyDefinition {
  readonly type: "setProperty";
  readonly name: string;
  readonly expression: ExpressionInput;
}

/** `log(message, options)`. */
export interface LogDefinition {
  readonly type: "log";
  readonly message: ExpressionInput;
  readonly level: LogLevel;
  readonly logger?: string;
}

/** `stop()`: stops routing the exchange. */
export interface StopDefinition {
  readonly type: "stop";
}

/** A step another package added with `defineStep(name, factory)`: the factory's arguments as given. */
export interface CustomStepDefinition {
  readonly type: "custom";
  readonly name: string;
  readonly args: unknown[];
}
