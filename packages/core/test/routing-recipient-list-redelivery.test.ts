import { createContext, defineComponent, type Exchange, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

// recipientList redelivers a recipient's failed send (a synchronous throw, an asynchronous
// rejection) to that recipient only, whether its send step runs at once or after an interceptor
// that waits, sequentially or in parallel, with a recipient route that re-enters the same step,
// and with messages that repeat the previous message's recipients.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

/** Joins the recipients' replies in recipient order: `x:a+x:b`. */
const joinBodies = (previous: Exchange | undefined, next: Exchange): Exchange => {
  if (previous === undefined) return next;
  previous.body = `${String(previous.body)}+${String(next.body)}`;
  return previous;
};

/** `flaky:a` throws on the first send of each body, `flaky:b` rejects on the first two. */
function flakyComponent(attempts: Map<string, number>) {
  const count = (key: string): number => {
    const made = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, made);
    return made;
  };
  return defineComponent({
    scheme: "flaky",
    options: {},
    createEndpoint(address) {
      return {
        uri: address.uri,
        send(exchange) {
          const key = `${address.path} ${String(exchange.body)}`;
          if (address.path === "a") {
            if (count(key) < 2) throw new Error("a fails once");
            exchange.body = `${String(exchange.body)}:a`;
            return;
          }
          return Promise.resolve().then(() => {
            if (count(key) < 3) throw new Error("b fails twice");
            exchange.body = `${String(exchange.body)}:b`;
          });
        },
      };
    },
  });
}

describe("recipientList redelivery", () => {
  for (const parallel of [false, true]) {
    for (const waits of [false, true]) {
      it(`redelivers each failed send to its recipient only (${parallel ? "parallel" : "sequential"}${waits ? ", an interceptor waits before each send" : ""})`, async () => {
        const attempts = new Map<string, number>();
        context = createContext({ logLevel: "off" });
        if (waits) {
          context.addInterceptor({
            name: "waits",
            wrapStep: (step, next) =>
              step.path.includes("to recipient")
                ? async (exchange) => {
                    await new Promise((resolve) => setTimeout(resolve, 1));
                    return next(exchange);
                  }
                : next,
          });
        }
        context.addComponent(flakyComponent(attempts));
        await context.addRoutes((r) => {
          r.from("direct:start")
            .onException(Error, { maximumRedeliveries: 3, redeliveryDelay: 1 })
            .recipientList("${header.list}", { aggregate: joinBodies, parallel });
          r.from("direct:c").process((exchange) => {
            exchange.body = `${String(exchange.body)}:c`;
          });
          r.from("direct:r")
            .process((exchange) => {
              exchange.headers.list = "direct:c,direct:c";
            })
            .to("direct:start");
        });
        await context.start();
        const started = context;
        const replies = await Promise.all([
          started.request("direct:start", "x", { list: "flaky:a,flaky:b,direct:c" }),
          started.request("direct:start", "y", { list: "flaky:b, flaky:a" }),
          started.request("direct:start", "z", { list: "direct:r,direct:c" }),
          started.request("direct:start", "w", { list: ["direct:c", "flaky:a"] }),
        ]);
        expect(replies).toEqual(["x:a+x:b+x:c", "y:b+y:a", "z:c+z:c+z:c", "w:c+w:a"]);
        expect(Object.fromEntries(attempts)).toMatchObject({
          "a x": 2,
          "b x": 3,
          "a y": 2,
          "b y": 3,
          "a w": 2,
        });
        // Messages that repeat the previous message's recipients, then one that fails for good.
        for (let index = 0; index < 5; index++) {
          expect(await started.request("direct:start", `s${index}`, { list: "direct:c,flaky:a" })).toBe(
            `s${index}:c+s${index}:a`,
          );
        }
        await expect(started.request("direct:start", "f", { list: "direct:c,direct:nope" })).rejects.toThrow(
          "direct:nope",
        );
        expect(await started.request("direct:start", "g", { list: "direct:c,flaky:a" })).toBe("g:c+g:a");
      });
    }
  }
});
