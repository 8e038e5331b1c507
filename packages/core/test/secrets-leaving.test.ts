import {
  type Component,
  createContext,
  defineComponent,
  type Logger,
  type RouteContext,
} from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { headerSecrets, redactHeaders } from "../src/internal.js";

/**
 * Credentials must not leave the process under any component's header naming: a component
 * declares its header prefixes (`vault.header.`), and every exit — describe(), log lines, error
 * logs, dead letters, error texts — finds a header's own name behind them.
 */

const KEY = "vk-7f3a/9c2e41-live";
const TOKEN = "tok-55b1e0aa-user";
const QUERY_KEY = "qk-0d9e8f7a6b";
const SIGNATURE = "sg-1a2b3c4d5e";

/** The key as a server echoing it in JSON might escape it: `\/` and a `\u` escape. */
const ESCAPED_KEY = KEY.replace("/", "\\/").replace("l", "\\u006c");

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  context = undefined;
});

function capturingLogger(lines: string[]): Logger {
  const write = (line: string): void => {
    lines.push(line);
  };
  return { trace: write, debug: write, info: write, warn: write, error: write };
}

/** A component whose protocol headers live under `vault.header.` (like http's `http.header.`). */
function vaultComponent(sent: unknown[] = []): Component {
  return defineComponent({
    scheme: "vault",
    headerPrefixes: ["vault.header."],
    options: { api_key: { type: "string" }, sig: { type: "string" }, page: { type: "integer" } },
    createEndpoint: (address) => ({
      uri: address.uri,
      send: (exchange) => {
        sent.push(exchange.body);
      },
    }),
  }) as unknown as Component;
}

function expectNoSecret(text: string): void {
  for (const secret of [KEY, ESCAPED_KEY, TOKEN, QUERY_KEY, SIGNATURE]) expect(text).not.toContain(secret);
}

describe("secrets leaving the process", () => {
  it("describe() redacts a token as a URI's user name, secret-named parameters, and values set on secret headers", async () => {
    context = createContext({ logLevel: "off" });
    context.addComponent(vaultComponent());
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("in")
        .setHeader("vault.header.key", KEY)
        .to(`vault://${TOKEN}@host/store?api_key=${QUERY_KEY}&sig=${SIGNATURE}&page=2`)
        .to(`vault://reader:${TOKEN}@host/store`);
    });
    const description = context.describe();
    expectNoSecret(JSON.stringify(description));
    const steps = description.routes[0]!.steps;
    expect(steps[0]!.options).toMatchObject({ name: "vault.header.key", expression: "[redacted]" });
    expect(steps[1]!.options.uri).toBe(
      "vault://[redacted]@host/store?api_key=[redacted]&sig=[redacted]&page=2",
    );
    expect(steps[2]!.options.uri).toBe("vault://reader:[redacted]@host/store");
  });

  it("a log: line shows secret headers under a component's prefix as [redacted], and their values nowhere", async () => {
    const lines: string[] = [];
    context = createContext({ logger: capturingLogger(lines) });
    context.addComponent(vaultComponent());
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("in").to("log:audit?showAll=true&maxChars=100000");
    });
    await context.start();
    await context.request("direct:in", `{"echo":"Bearer ${ESCAPED_KEY}"}`, {
      "vault.header.key": KEY,
      "vault.header.authorization": `Bearer ${TOKEN}`,
      visible: "shown",
    });
    const line = lines.find((candidate) => candidate.startsWith("[audit]"));
    expect(line).toContain('"vault.header.key":"[redacted]"');
    expect(line).toContain('"vault.header.authorization":"[redacted]"');
    expect(line).toContain("shown");
    expect(line).toContain('Body: {"echo":"Bearer [redacted]"}');
    expectNoSecret(line!);
  });

  it("an error log of an exchange nobody waits for redacts the credentials its headers carry", async () => {
    const lines: string[] = [];
    context = createContext({ logger: capturingLogger(lines) });
    context.addComponent(vaultComponent());
    await context.addRoutes((r) => {
      r.from("seda:work")
        .routeId("work")
        .process((exchange) => {
          throw new Error(
            `backend refused ${String(exchange.headers["vault.header.key"])} at https://${TOKEN}@backend/x?sig=${SIGNATURE}`,
          );
        });
    });
    await context.start();
    await context.send("seda:work", "job", { "vault.header.key": KEY });
    await vi.waitFor(() => expect(lines.some((line) => line.includes("backend refused"))).toBe(true));
    const line = lines.find((candidate) => candidate.includes("backend refused"))!;
    expect(line).toContain("backend refused [redacted] at https://[redacted]@backend/x?sig=[redacted]");
    expectNoSecret(line);
  });

  it("a dead letter carries secret headers as [redacted] and an exception text without their values", async () => {
    context = createContext({ logLevel: "off" });
    context.addComponent(vaultComponent());
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:dead" });
      r.from("direct:in")
        .routeId("in")
        .process((exchange) => {
          throw new Error(
            `server said {"key":"${ESCAPED_KEY}"} for ${String(exchange.headers["vault.header.key"])}`,
          );
        });
    });
    await context.start();
    const dead = context.endpoint("mock:dead");
    dead.expectedMessageCount(1);
    await context.requestExchange("direct:in", {
      body: "order",
      headers: { "vault.header.key": KEY, "vault.header.x-session": TOKEN, kept: "yes" },
    });
    await dead.assertIsSatisfied(5_000);
    const headers = dead.received[0]!.headers;
    expect(headers["vault.header.key"]).toBe("[redacted]");
    expect(headers["vault.header.x-session"]).toBe("[redacted]");
    expect(headers.kept).toBe("yes");
    expect(headers["routekit.exception"]).toBe('Error: server said {"key":"[redacted]"} for [redacted]');
    expectNoSecret(JSON.stringify(headers));
  });

  it("error texts about an endpoint URI redact its credentials", async () => {
    context = createContext({ logLevel: "off" });
    context.addComponent(vaultComponent());
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("in").toD("${header.target}", { raw: true });
    });
    await context.start();
    const unknown = await context.requestExchange("direct:in", {
      headers: { target: `nowhere://${TOKEN}@host/x?token=${QUERY_KEY}` },
    });
    expect(unknown.error?.message).toContain("nowhere://[redacted]@host/x?token=[redacted]");
    const badOption = await context.requestExchange("direct:in", {
      headers: { target: `vault:store?page=two&api_key=${QUERY_KEY}` },
    });
    expect(badOption.error?.message).toContain("api_key=[redacted]");
    for (const error of [unknown.error, badOption.error]) expectNoSecret(String(error?.message));
  });

  it("refuses a component whose headerPrefixes is not a list of names", () => {
    context = createContext({ logLevel: "off" });
    const bad = { ...vaultComponent(), headerPrefixes: "vault.header." } as unknown as Component;
    expect(() => context!.addComponent(bad)).toThrow(
      /component 'vault' option 'headerPrefixes' expects an array/,
    );
  });

  it("bounds the values a message's headers give to search for, and still hides a header past the bounds", () => {
    const cookies = Array.from({ length: 100 }, (_, index) => `c${index}=${"v".repeat(90)}${index}`).join(
      "; ",
    );
    const headers = {
      "vault.header.authorization": `Bearer ${"x".repeat(5000)}`,
      "vault.header.cookie": cookies,
      "vault.header.x-token": "short",
    };
    const secrets = headerSecrets(headers);
    expect(secrets.length).toBeLessThanOrEqual(32);
    expect(secrets.every((secret) => secret.length >= 6 && secret.length <= 1024)).toBe(true);
    expect(secrets.reduce((total, secret) => total + secret.length, 0)).toBeLessThanOrEqual(4096);
    expect(redactHeaders(headers)).toEqual({
      "vault.header.authorization": "[redacted]",
      "vault.header.cookie": "[redacted]",
      "vault.header.x-token": "[redacted]",
    });
  });
});
