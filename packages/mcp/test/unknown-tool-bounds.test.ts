// An unknown tool name of any size: the "did you mean" hint and the echo in the error are bounded.
import { describe, expect, it } from "vitest";
import { serveMcpHttp } from "../src/index.js";
import { createFixtureContext } from "./fixtures/tool-routes.js";
import { connect } from "./support/http-client.js";

const TOKEN = "test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function callError(name: string): Promise<string> {
  const context = await createFixtureContext();
  await context.start();
  const server = await serveMcpHttp(context, { tools: ["echo", "add"], token: TOKEN });
  try {
    const { client, transport } = await connect(server.url, AUTH);
    try {
      const failure = await client.callTool({ name, arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      return (failure as Error).message;
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  } finally {
    await server.close();
    await context.stop();
  }
}

describe("unknown tool names sent by an MCP client", () => {
  it("a near miss still gets its hint", async () => {
    expect(await callError("ecko")).toMatch(/unknown tool 'ecko' \(did you mean 'echo'\?\)/);
  });

  it("a 2 MB name is echoed cut to a few characters, with no hint", async () => {
    const name = `echo${"x".repeat(2 * 1024 * 1024)}`;
    const message = await callError(name);
    expect(message).toContain("unknown tool 'echoxxx");
    expect(message).toContain(`(${name.length} chars)`);
    expect(message).not.toContain("did you mean");
    expect(message.length).toBeLessThan(400);
  });
});
