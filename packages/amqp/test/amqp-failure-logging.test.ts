import { amqpPlugin } from "@routekit/amqp";
import { createContext, type Logger, type RouteContext } from "@routekit/core";
import { collectingLogger, waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];
const temporary = "autoDelete=true&durable=false";

function newContext(logger: Logger): RouteContext {
  const context = createContext({ logger });
  context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
  contexts.push(context);
  return context;
}

function queueName(label: string): string {
  const name = uniqueName(label);
  inspector.track([name, `${name}.dlq`, `${name}.dlq.dlq`]);
  return name;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

/** The failure lines of the consumer of `uri`, with each exchange id as `<id>`. */
const failureLines = (lines: string[], uri: string): string[] =>
  lines
    .filter((line) => line.includes(`${uri}: exchange `))
    .map((line) => line.replace(/exchange \S+ failed/, "exchange <id> failed"));

describe.skipIf(!brokerAvailable)("amqp: a failing consumer says so", () => {
  it("logs each redelivery as a warning and the dead letter as an error, one line per delivery", async () => {
    const queue = queueName("failure-log");
    const uri = `amqp:queue:${queue}?${temporary}&maxRedeliveries=2`;
    const logger = collectingLogger();
    const context = newContext(logger);
    await context.addRoutes((r) => {
      r.from(uri)
        .routeId("always-fails")
        .process(() => {
          throw new Error("cannot enrich");
        });
    });
    await context.start();
    await context.send(`amqp:queue:${queue}?${temporary}`, { n: 1 });
    await waitFor("the dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 1);
    await waitFor("the dead letter's line", () => failureLines(logger.lines, uri).length === 3);

    const lines = failureLines(logger.lines, uri);
    const failed = `${uri}: exchange <id> failed in route 'always-fails' at step #1 process: Error: cannot enrich`;
    expect(lines).toEqual([
      `warn ${failed}; redelivering (1 of 2)`,
      `warn ${failed}; redelivering (2 of 2)`,
      `error ${failed}; dead-lettered to '${queue}.dlq'`,
    ]);
  });

  it("logs a failed request once, with the error reply the caller got", async () => {
    const queue = queueName("failure-log-request");
    const uri = `amqp:queue:${queue}?${temporary}`;
    const logger = collectingLogger();
    const context = newContext(logger);
    await context.addRoutes((r) => {
      r.from(uri)
        .routeId("answers-badly")
        .process(() => {
          throw new Error("no answer");
        });
    });
    await context.start();
    await expect(context.request(uri, "question")).rejects.toThrow("no answer");
    await waitFor("the failure line", () => failureLines(logger.lines, uri).length === 1);
    expect(failureLines(logger.lines, uri)).toEqual([
      `error ${uri}: exchange <id> failed in route 'answers-badly' at step #1 process: Error: no answer; error reply sent`,
    ]);
  });

  it("logs nothing for a message whose failure the route's error handler dealt with", async () => {
    const queue = queueName("failure-handled");
    const uri = `amqp:queue:${queue}?${temporary}`;
    const logger = collectingLogger();
    const context = newContext(logger);
    const seen: unknown[] = [];
    await context.addRoutes((r) => {
      r.from(uri)
        .routeId("handles")
        .onException(Error, {
          handled: true,
          step: (s) =>
            s.process(() => {
              seen.push("handled");
            }),
        })
        .process(() => {
          throw new Error("dealt with");
        });
    });
    await context.start();
    await context.send(uri, 1);
    await waitFor("the handler", () => seen.length === 1);
    await context.stop();
    expect(failureLines(logger.lines, uri)).toEqual([]);
  });
});
