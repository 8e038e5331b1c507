import { randomUUID } from "node:crypto";
import { AmqpError, amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { brokerAvailable, uniqueName } from "./support/broker.js";

const contexts: RouteContext[] = [];

/** A context whose plugin logs in as a user the local broker does not have. */
function contextWithUnknownUser(user: string, password: string): RouteContext {
  const context = createContext();
  context.use(
    amqpPlugin({
      url: `amqp://${user}:${password}@127.0.0.1:5672`,
      connectTimeoutMs: 60_000,
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    }),
  );
  contexts.push(context);
  return context;
}

function amqpErrorIn(error: unknown): AmqpError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof AmqpError) return current;
  }
  return undefined;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
});

describe.skipIf(!brokerAvailable)("amqp: a refused login", () => {
  it("fails start at once with LOGIN_REFUSED naming the user, not after connectTimeoutMs", {
    timeout: 20_000,
  }, async () => {
    const user = `routekit-no-such-user-${randomUUID().slice(0, 8)}`;
    const password = `wrong-${randomUUID()}`;
    const context = contextWithUnknownUser(user, password);
    await context.addRoutes((r) => {
      // The login fails before any queue is declared: nothing to delete afterwards.
      r.from(`amqp:queue:${uniqueName("never-declared")}`).to("mock:never");
    });

    const error = await context.start().catch((caught: unknown) => caught);

    const refused = amqpErrorIn(error);
    expect(refused?.code).toBe("LOGIN_REFUSED");
    expect(refused?.message).toMatch(/refused the login: wrong user name or password/);
    expect(refused?.message).toContain(`user '${user}'`);
    expect(refused?.message).toMatch(/Not retried/);
    expect(refused?.message).not.toContain(password);
    // It answered the one attempt: connectTimeoutMs (60 s) was not waited for, and this test's own limit is 20 s.
  });

  it("fails a send with LOGIN_REFUSED instead of retrying until sendTimeout", {
    timeout: 20_000,
  }, async () => {
    const password = `wrong-${randomUUID()}`;
    const context = contextWithUnknownUser(`routekit-no-such-user-${randomUUID().slice(0, 8)}`, password);
    await context.start();

    const error = await context
      .send(`amqp:queue:${uniqueName("never-declared")}?sendTimeout=60000`, "hello")
      .catch((caught: unknown) => caught);

    expect(amqpErrorIn(error)?.code).toBe("LOGIN_REFUSED");
    expect(String((error as Error).message)).not.toContain(password);
  });
});
