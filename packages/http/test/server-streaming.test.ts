import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP_HEADERS, httpServerOf } from "../src/index.js";
import { type Served, serve } from "./support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

/** A gate per item: the producer waits at gate n until the client has read item n. */
function gates(count: number) {
  const opened: Array<() => void> = [];
  const waits = Array.from(
    { length: count },
    (_, index) => new Promise<void>((resolve) => (opened[index] = resolve)),
  );
  return { wait: (index: number) => waits[index], open: (index: number) => opened[index]?.() };
}

const timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("an http: route whose body is an AsyncIterable", () => {
  it("answers objects as server-sent events, each flushed before the next is produced", async () => {
    const gate = gates(4);
    served = await serve((r) => {
      r.from("http:/events").process((exchange) => {
        exchange.body = (async function* () {
          for (let index = 0; index < 4; index++) {
            yield { type: "count", index, text: `é${index}🙂` };
            // The next item is made only once the client has read this one: each was flushed.
            await gate.wait(index);
          }
        })();
      });
    });

    const response = await request(`${served.url}/events`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    const events: unknown[] = [];
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        expect(event.startsWith("data: ")).toBe(true);
        events.push(JSON.parse(event.slice("data: ".length)));
        gate.open(events.length - 1);
        end = buffer.indexOf("\n\n");
      }
    }

    expect(events).toEqual([0, 1, 2, 3].map((index) => ({ type: "count", index, text: `é${index}🙂` })));
    expect(buffer).toBe("");
  });

  it("answers strings as chunked text, in order and complete", async () => {
    const gate = gates(3);
    served = await serve((r) => {
      r.from("http:/text").process((exchange) => {
        exchange.headers[`${HTTP_HEADERS.responseHeaderPrefix}x-stream`] = "yes";
        exchange.body = (async function* () {
          for (let index = 0; index < 3; index++) {
            yield `part ${index};`;
            await gate.wait(index);
          }
        })();
      });
    });

    const response = await request(`${served.url}/text`);
    let text = "";
    for await (const chunk of response.body) {
      text += chunk.toString("utf8");
      gate.open(text.split(";").length - 2);
    }

    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers["transfer-encoding"]).toBe("chunked");
    expect(response.headers["x-stream"]).toBe("yes");
    expect(text).toBe("part 0;part 1;part 2;");
  });

  it("writes a multi-line string as one event of several data lines when the route asks for event-stream", async () => {
    served = await serve((r) => {
      r.from("http:/lines").process((exchange) => {
        exchange.headers[`${HTTP_HEADERS.responseHeaderPrefix}content-type`] = "text/event-stream";
        exchange.body = (async function* () {
          yield "first line\nsecond line";
          yield "[DONE]";
        })();
      });
    });

    const response = await request(`${served.url}/lines`);

    expect(await response.body.text()).toBe("data: first line\ndata: second line\n\ndata: [DONE]\n\n");
  });

  it("ends an event stream with an error event when the iterable fails mid-way", async () => {
    served = await serve(
      (r) => {
        r.from("http:/fails").process((exchange) => {
          exchange.body = (async function* () {
            yield { type: "text-delta", text: "Hel" };
            throw new Error("the model went away");
          })();
        });
      },
      { errorDetail: "message" },
    );

    const response = await request(`${served.url}/fails`);
    const body = await response.body.text();

    const events = body
      .trim()
      .split("\n\n")
      .map((event) => JSON.parse(event.slice("data: ".length)));
    expect(events).toEqual([
      { type: "text-delta", text: "Hel" },
      { type: "error", error: "the model went away", exchangeId: expect.any(String) },
    ]);
  });

  it("cuts a text stream short when the iterable fails mid-way, so the client sees an incomplete body", async () => {
    served = await serve((r) => {
      r.from("http:/fails").process((exchange) => {
        exchange.body = (async function* () {
          yield "partial ";
          throw new Error("broken");
        })();
      });
    });

    // The connection is cut: the client fails reading the head or the body, never sees a whole reply.
    const reading = request(`${served.url}/fails`).then((response) => response.body.text());

    await expect(reading).rejects.toThrow();
  });

  it("answers 500 with JSON when the iterable fails before its first item", async () => {
    served = await serve((r) => {
      r.from("http:/early").process((exchange) => {
        exchange.body = (async function* () {
          yield* [];
          throw new Error("no start");
        })();
      });
    });

    const response = await request(`${served.url}/early`);

    expect(response.statusCode).toBe(500);
    expect(await response.body.json()).toEqual({
      error: "Internal Server Error",
      exchangeId: expect.any(String),
    });
  });

  it("stops the iteration when the client disconnects, leaving no request, timer or listener behind", async () => {
    let stopped!: () => void;
    const iterationStopped = new Promise<void>((resolve) => (stopped = resolve));
    const baseline = timers();
    served = await serve((r) => {
      r.from("http:/endless").process((exchange) => {
        exchange.body = (async function* () {
          try {
            for (let index = 0; ; index++) {
              yield { index };
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
          } finally {
            stopped();
          }
        })();
      });
    });

    const response = await request(`${served.url}/endless`);
    for await (const _chunk of response.body) break;
    response.body.destroy();

    await iterationStopped;
    const server = httpServerOf(served.context);
    await expect.poll(() => server.activeRequests, { timeout: 5_000 }).toBe(0);
    await expect.poll(timers, { timeout: 5_000 }).toBeLessThanOrEqual(baseline);
  });
});
