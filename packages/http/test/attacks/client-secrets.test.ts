import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { HttpOperationFailedError, httpPlugin } from "../../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "../support/loopback-server.js";

const TOKEN = "tok-Client_Secret/42+Zz";

let remote: LoopbackServer | undefined;
let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await remote?.close();
  context = undefined;
  remote = undefined;
});

function forms(secret: string): Record<string, string> {
  return {
    raw: secret,
    lower: secret.toLowerCase(),
    upper: secret.toUpperCase(),
    json: JSON.stringify({ token: secret }),
    url: encodeURIComponent(secret),
    base64: Buffer.from(secret).toString("base64"),
    base64url: Buffer.from(secret).toString("base64url"),
    basic: `Basic ${Buffer.from(`me:${secret}`).toString("base64")}`,
  };
}

describe("the http client producer redacts its credentials from failures", () => {
  it.each(Object.keys(forms(TOKEN)))(
    "the %s form echoed in an error body, even at the excerpt's cut",
    async (form) => {
      remote = await startLoopbackServer((request, response) => {
        const token = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
        response.writeHead(401, { "content-type": "text/plain", location: `/login?token=${token}` });
        // 500 characters of padding put the secret across the 512-character excerpt cut.
        response.end(`${"p".repeat(500)} ${forms(token)[form]} trailing`);
      });
      context = createContext({ logLevel: "off" });
      context.use(httpPlugin());
      await context.start();
      const exchange = await context.requestExchange(`${remote.url}/items`, {
        headers: { "http.request.header.Authorization": `Bearer ${TOKEN}` },
      });
      const error = exchange.error;
      expect(error).toBeInstanceOf(HttpOperationFailedError);
      const failure = error as HttpOperationFailedError;
      for (const text of [failure.message, failure.bodyExcerpt, String(failure.redirectLocation)]) {
        const lower = text.toLowerCase();
        for (const encoded of Object.values(forms(TOKEN))) expect(lower).not.toContain(encoded.toLowerCase());
        expect(text).not.toContain("tok-Cli");
      }
    },
  );
});
