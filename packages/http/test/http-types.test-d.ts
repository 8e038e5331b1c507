import { createContext, type RouteDsl } from "@routekit/core";
import {
  HTTP_HEADERS,
  HttpError,
  type HttpErrorCode,
  HttpOperationFailedError,
  type HttpPluginOptions,
  type HttpServer,
  httpPlugin,
  httpServerOf,
} from "@routekit/http";
import { describe, expectTypeOf, it } from "vitest";

// Type-level only: the functions below are checked by the compiler, never run.

describe("@routekit/http public types", () => {
  it("types the plugin options, the server and the header names", () => {
    const typed = () => {
      const context = createContext();
      context.use(httpPlugin({ port: 0, maxBodyBytes: 1024, errorDetail: "none" }));
      expectTypeOf(httpServerOf(context)).toEqualTypeOf<HttpServer>();
      expectTypeOf(httpServerOf(context).url).toEqualTypeOf<string>();
      expectTypeOf<HttpPluginOptions["errorDetail"]>().toEqualTypeOf<"message" | "none" | undefined>();
      // @ts-expect-error: the port is a number
      httpPlugin({ port: "8080" });
      // @ts-expect-error: errorDetail is "message" or "none"
      httpPlugin({ errorDetail: "stack" });
      // @ts-expect-error: unknown option
      httpPlugin({ prot: 8080 });
    };
    expectTypeOf(typed).toBeFunction();
    expectTypeOf(HTTP_HEADERS.status).toEqualTypeOf<"http.status">();
    expectTypeOf(HTTP_HEADERS.pathParameterPrefix).toEqualTypeOf<"http.path.">();
  });

  it("types the errors a client call fails with", () => {
    const typed = (error: unknown) => {
      if (error instanceof HttpOperationFailedError) {
        expectTypeOf(error.status).toEqualTypeOf<number>();
        expectTypeOf(error.redirectLocation).toEqualTypeOf<string | undefined>();
        expectTypeOf(error.code).toEqualTypeOf<HttpErrorCode>();
      }
      if (error instanceof HttpError) expectTypeOf(error.code).toEqualTypeOf<HttpErrorCode>();
    };
    expectTypeOf(typed).toBeFunction();
  });

  it("leaves the body type of an http route to the route (core's from and to)", () => {
    const typed = (route: RouteDsl<unknown>) => {
      expectTypeOf(route.to("https://api.example.com/orders")).toEqualTypeOf<RouteDsl<unknown>>();
      expectTypeOf(route.to<{ id: string }>("https://api.example.com/orders")).toEqualTypeOf<
        RouteDsl<{ id: string }>
      >();
    };
    expectTypeOf(typed).toBeFunction();
  });
});
