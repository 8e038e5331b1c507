import { type ConsoleOptions, consoleOf, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";

export const TOKEN = "console-test-token-1234";
export const silentLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A context with the console (token set) and two routes: orders (a choice) and books (may fail). */
export async function startOrderContext(
  options: ConsoleOptions = {},
): Promise<{ context: RouteContext; url: string }> {
  const context = createContext({ logger: silentLogger });
  context.use(consolePlugin({ token: TOKEN, redactHeaders: ["X-Secret"], ...options }));
  await context.addRoutes((r) => {
    r.from("direct:orders")
      .routeId("orders")
      .setHeader("kind", "${body.kind}")
      .choice((c) =>
        c
          .when("${header.kind} == 'book'", (route) => route.to("direct:books"))
          .otherwise((route) => route.to("mock:other")),
      )
      .to("mock:done");
    r.from("direct:books")
      .routeId("books")
      .process((exchange) => {
        if ((exchange.body as { fail?: boolean }).fail === true) throw new Error("no such book");
        exchange.headers.shelf = "B7";
      });
  });
  await context.start();
  const url = consoleOf(context)?.url;
  if (url === undefined) throw new Error("the console did not start");
  return { context, url };
}

/** `path` on the console with the token in the Authorization header. */
export async function getWithToken<TValue>(
  url: string,
  path: string,
): Promise<{ status: number; body: TValue }> {
  const response = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: response.status, body: (await response.json()) as TValue };
}

/** Waits until `check` holds (polling every 20 ms), failing after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
