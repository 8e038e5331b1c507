// The code of docs/guide/http.md: type-checked, not run (it listens on port 8080 and calls a remote host).
// #region server
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";

const context = createContext();
context.use(httpPlugin({ port: 8080 })); // host 127.0.0.1 unless told otherwise

await context.addRoutes((r) => {
  r.from("http:/orders/{id}?httpMethodRestrict=GET")
    .routeId("get-order")
    .setBody((exchange) => ({ id: exchange.headers["http.path.id"] }));

  r.from("http:/quotes?httpMethodRestrict=POST")
    .routeId("quote")
    .to("https://rates.example.com/v1/convert?httpMethod=POST&timeout=5000");
});

await context.start();
console.log(httpServerOf(context).url); // http://127.0.0.1:8080

// #endregion server

import { EXCEPTION_CAUGHT } from "@routekit/core";

class ValidationError extends Error {}

await context.addRoutes((r) => {
  // #region validation-error
  r.onException(ValidationError, {
    handled: true,
    step: (route) =>
      route
        .setHeader("http.status", "422")
        .setBody((exchange) => ({ error: (exchange.properties[EXCEPTION_CAUGHT] as Error).message })),
  });
  // #endregion validation-error
});
