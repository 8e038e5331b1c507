import {
  AmqpError,
  type AmqpErrorCode,
  type AmqpPluginOptions,
  amqpHeader,
  amqpPlugin,
  amqpProperty,
  decodeBody,
  type EncodedBody,
  encodeBody,
  fromAmqpHeaders,
  type ReconnectOptions,
  toAmqpHeaders,
} from "@routekit/amqp";
import { createContext } from "@routekit/core";
import { describe, expectTypeOf, it } from "vitest";

// Type-level only: the functions below are checked by the compiler, never run.

describe("@routekit/amqp public types", () => {
  it("types the plugin options", () => {
    const typed = () => {
      const context = createContext();
      context.use(
        amqpPlugin({ url: "amqp://127.0.0.1", reconnect: { initialDelayMs: 100 }, connectTimeoutMs: 5000 }),
      );
      expectTypeOf<AmqpPluginOptions["reconnect"]>().toEqualTypeOf<
        { initialDelayMs?: number; maxDelayMs?: number } | undefined
      >();
      expectTypeOf<ReconnectOptions>().toHaveProperty("initialDelayMs");
      // @ts-expect-error: the url is a string
      amqpPlugin({ url: new URL("amqp://127.0.0.1") });
      // @ts-expect-error: unknown option
      amqpPlugin({ prefetch: 10 });
    };
    expectTypeOf(typed).toBeFunction();
  });

  it("types the message codec and the header names", () => {
    expectTypeOf(encodeBody).returns.toEqualTypeOf<EncodedBody>();
    expectTypeOf(decodeBody).returns.toEqualTypeOf<unknown>();
    expectTypeOf(toAmqpHeaders).returns.toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(fromAmqpHeaders).parameter(0).toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf(amqpHeader.redeliveries).toEqualTypeOf<"x-routekit-redeliveries">();
    expectTypeOf(amqpProperty.queue).toEqualTypeOf<"amqp.queue">();
    const typed = () => {
      // @ts-expect-error: the content is a Buffer
      decodeBody("text", "text/plain");
    };
    expectTypeOf(typed).toBeFunction();
  });

  it("types the error code", () => {
    const typed = (error: unknown) => {
      if (error instanceof AmqpError) expectTypeOf(error.code).toEqualTypeOf<AmqpErrorCode>();
    };
    expectTypeOf(typed).toBeFunction();
  });
});
