import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { copyExchange } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** What a step saw: the exchange's own id and the id of the exchange it was made from. */
const lineage = (exchange: Exchange) => ({ id: exchange.id, parentId: exchange.parentId });

describe("exchange parentId", () => {
  it("is undefined on an exchange that entered a route from outside", async () => {
    context = createContext();
    const seen: Array<ReturnType<typeof lineage>> = [];
    await context.addRoutes((r) =>
      r.from("direct:in").process((exchange) => void seen.push(lineage(exchange))),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    expect(seen).toEqual([{ id: exchange.id, parentId: undefined }]);
  });

  it("names the original on a wireTap's copy, which runs as InOnly with its own id", async () => {
    context = createContext();
    const tapped: Array<ReturnType<typeof lineage> & { pattern: string }> = [];
    await context.addRoutes((r) => {
      r.from("direct:tapped").wireTap("direct:tap").setBody("main");
      r.from("direct:tap").process(
        (exchange) => void tapped.push({ ...lineage(exchange), pattern: exchange.pattern }),
      );
    });
    await context.start();
    const original = await context.requestExchange("direct:tapped", { body: "in" });
    await expect.poll(() => tapped.length).toBe(1);
    expect(original.body).toBe("main");
    expect(tapped[0]).toMatchObject({ parentId: original.id, pattern: "InOnly" });
    expect(tapped[0]?.id).not.toBe(original.id);
  });

  it("names the original on every split part (sequential and parallel), each part with its own id", async () => {
    context = createContext();
    const seen: Array<ReturnType<typeof lineage>> = [];
    await context.addRoutes((r) => {
      r.from("direct:sequential").split("${body}", (part) =>
        part.process((exchange) => void seen.push(lineage(exchange))),
      );
      r.from("direct:parallel").split(
        "${body}",
        (part) => part.delay(1).process((exchange) => void seen.push(lineage(exchange))),
        { parallel: 2 },
      );
    });
    await context.start();
    for (const uri of ["direct:sequential", "direct:parallel"]) {
      seen.length = 0;
      const original = await context.requestExchange(uri, { body: ["a", "b", "c"] });
      expect(original.error).toBeUndefined();
      expect(seen).toHaveLength(3);
      expect(seen.map((part) => part.parentId)).toEqual([original.id, original.id, original.id]);
      expect(new Set([original.id, ...seen.map((part) => part.id)]).size).toBe(4);
    }
  });

  it("names the original on every multicast and recipientList copy", async () => {
    context = createContext();
    const seen: Array<ReturnType<typeof lineage>> = [];
    await context.addRoutes((r) => {
      r.from("direct:a").process((exchange) => void seen.push(lineage(exchange)));
      r.from("direct:b").process((exchange) => void seen.push(lineage(exchange)));
      r.from("direct:multicast").multicast(["direct:a", "direct:b"]);
      r.from("direct:recipients").recipientList("direct:a,direct:b");
    });
    await context.start();
    for (const uri of ["direct:multicast", "direct:recipients"]) {
      seen.length = 0;
      const original = await context.requestExchange(uri, { body: "x" });
      expect(original.error).toBeUndefined();
      expect(seen.map((copy) => copy.parentId)).toEqual([original.id, original.id]);
      expect(seen[0]!.id).not.toBe(seen[1]!.id);
      expect(seen.map((copy) => copy.id)).not.toContain(original.id);
    }
  });

  it("names the source on a copyExchange copy, and a part of a part names its own origin", async () => {
    context = createContext();
    const original = context.createExchange({ body: "x" });
    expect(original.parentId).toBeUndefined();
    const copy = copyExchange(original);
    expect(copy.parentId).toBe(original.id);
    expect(copyExchange(copy).parentId).toBe(copy.id);

    const seen: Array<ReturnType<typeof lineage> & { body: unknown }> = [];
    await context.addRoutes((r) =>
      r
        .from("direct:nested")
        .split("${body}", (outer) =>
          outer
            .process((exchange) => void seen.push({ ...lineage(exchange), body: "outer" }))
            .split("${body}", (inner) =>
              inner.process((exchange) => void seen.push({ ...lineage(exchange), body: exchange.body })),
            ),
        ),
    );
    await context.start();
    const nested = await context.requestExchange("direct:nested", { body: [["p", "q"]] });
    expect(nested.error).toBeUndefined();
    const [outer, ...inner] = seen;
    expect(outer!.parentId).toBe(nested.id);
    expect(inner.map((part) => [part.body, part.parentId])).toEqual([
      ["p", outer!.id],
      ["q", outer!.id],
    ]);
  });
});
