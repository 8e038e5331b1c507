import { concat, interval, map, Observable, of, take, throwError } from "rxjs";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { httpServerOf } from "../src/index.js";
import { type Served, serve } from "./support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

const eventsOf = (text: string) =>
  text
    .trim()
    .split("\n\n")
    .map((event) => JSON.parse(event.slice("data: ".length)));

describe("an http: route whose body is an RxJS Observable", () => {
  it("answers its values as server-sent events and ends when it completes", async () => {
    served = await serve((r) => {
      r.from("http:/ticks").process((exchange) => {
        exchange.body = interval(5).pipe(
          take(4),
          map((tick) => ({ tick })),
        );
      });
    });

    const response = await request(`${served.url}/ticks`);

    expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(eventsOf(await response.body.text())).toEqual([
      { tick: 0 },
      { tick: 1 },
      { tick: 2 },
      { tick: 3 },
    ]);
  });

  it("answers string values as chunked text", async () => {
    served = await serve((r) => {
      r.from("http:/words").process((exchange) => {
        exchange.body = of("one ", "two ", "three");
      });
    });

    const response = await request(`${served.url}/words`);

    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(await response.body.text()).toBe("one two three");
  });

  it("ends with an error event after the values that came before an error", async () => {
    served = await serve(
      (r) => {
        r.from("http:/fails").process((exchange) => {
          exchange.body = concat(
            of({ step: 1 }),
            throwError(() => new Error("upstream failed")),
          );
        });
      },
      { errorDetail: "message" },
    );

    const response = await request(`${served.url}/fails`);

    expect(eventsOf(await response.body.text())).toEqual([
      { step: 1 },
      { type: "error", error: "upstream failed", exchangeId: expect.any(String) },
    ]);
  });

  it("unsubscribes when the client disconnects, leaving no request behind", async () => {
    let unsubscribed!: () => void;
    const tornDown = new Promise<void>((resolve) => (unsubscribed = resolve));
    served = await serve((r) => {
      r.from("http:/endless").process((exchange) => {
        exchange.body = new Observable<{ tick: number }>((subscriber) => {
          let tick = 0;
          const timer = setInterval(() => subscriber.next({ tick: tick++ }), 5);
          return () => {
            clearInterval(timer);
            unsubscribed();
          };
        });
      });
    });

    const response = await request(`${served.url}/endless`);
    for await (const _chunk of response.body) break;
    response.body.destroy();

    await tornDown;
    const server = httpServerOf(served.context);
    await expect.poll(() => server.activeRequests, { timeout: 5_000 }).toBe(0);
  });
});
