// The client program the official MCP conformance suite runs against its test servers: a routekit
// context reaching the server at the URL given as the last argument with `mcpTools`, calling its
// tools as an llm step would, and answering its elicitation requests with a route.

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { createContext } from "@routekit/core";
import "@routekit/llm";
import { mcpTools } from "@routekit/mcp";

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: client.ts <server-url>\n");
  process.exit(2);
}

/** The OAuth client of the scenarios that give client credentials (MCP_CONFORMANCE_CONTEXT). */
function authProviderOf(given: string | undefined): OAuthClientProvider | undefined {
  if (given === undefined) return undefined;
  const scenario = JSON.parse(given) as {
    client_id?: string;
    client_secret?: string;
    private_key_pem?: string;
    signing_algorithm?: string;
  };
  if (scenario.client_id === undefined) return undefined;
  if (scenario.private_key_pem !== undefined) {
    return new PrivateKeyJwtProvider({
      clientId: scenario.client_id,
      privateKey: scenario.private_key_pem,
      algorithm: scenario.signing_algorithm ?? "ES256",
    });
  }
  if (scenario.client_secret === undefined) return undefined;
  return new ClientCredentialsProvider({
    clientId: scenario.client_id,
    clientSecret: scenario.client_secret,
  });
}
const authProvider = authProviderOf(process.env.MCP_CONFORMANCE_CONTEXT);

// #region answer-server
const context = createContext({ name: "mcp-conformance-client", logLevel: "warn" });
await context.addRoutes((r) => {
  // Accept every form as it comes: the fields left out get the schema's defaults (SEP-1034).
  r.from("direct:answer-elicitation").setBody(() => ({ action: "accept", content: {} }));
});
context.use(
  mcpTools({
    name: "remote",
    url,
    prefix: "",
    elicitation: "direct:answer-elicitation",
    reconnect: false,
    ...(authProvider === undefined ? undefined : { authProvider }),
  }),
);
// #endregion
await context.start();
try {
  for (const tool of context.tools.list()) {
    const input = tool.name === "add_numbers" ? { a: 5, b: 3 } : {};
    const result = await tool.execute(input, {});
    process.stdout.write(`${tool.name}: ${result.output}\n`);
  }
} finally {
  await context.stop({ timeoutMs: 5_000 });
}
