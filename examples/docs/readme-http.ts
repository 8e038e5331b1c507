// The code of packages/http/README.md: type-checked, not run (it listens on port 8080).
import { createContext } from "@routekit/core";

const context = createContext();

// #region usage
import { httpPlugin, httpServerOf } from "@routekit/http";

context.use(httpPlugin({ port: 8080 }));
await context.addRoutes((r) => {
  r.from("http:/ask?httpMethodRestrict=POST").to("https://api.example.com/answer?timeout=5000");
});
await context.start();
httpServerOf(context).url; // "http://127.0.0.1:8080"
// #endregion usage
