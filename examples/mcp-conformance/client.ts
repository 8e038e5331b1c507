// The client program the official MCP conformance suite runs against its test servers: a routekit
// context reaching the server at the URL given as the last argument with `mcpTools`, calling its
// tools as an llm step would, and answering its elicitation requests with a route.

import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { createContext } from "@routekit/core";
import "@routekit/llm";
import { type McpCrossAppAccessOptions, type McpToolsOptions, mcpTools } from "@routekit/mcp";
import { AuthorizationCodeProvider } from "./authorization-code-provider.js";

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: client.ts <server-url>\n");
  process.exit(2);
}

/** The scenario's context the suite gives (MCP_CONFORMANCE_CONTEXT), if any. */
interface ScenarioContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
}
const scenario = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as ScenarioContext;
const scenarioName = process.env.MCP_CONFORMANCE_SCENARIO ?? scenario.name ?? "";

/**
 * The OAuth client of the scenario: cross-app access (SEP-990), client credentials, or the
 * authorization-code flow.
 */
function authOptionsOf(): Pick<McpToolsOptions, "authProvider" | "authorizationCode" | "crossAppAccess"> {
  const {
    idp_id_token: idToken,
    idp_token_endpoint: idpTokenEndpoint,
    idp_client_id: idpClientId,
  } = scenario;
  const { client_id: clientId, client_secret: clientSecret } = scenario;
  if (
    idToken !== undefined &&
    idpTokenEndpoint !== undefined &&
    idpClientId !== undefined &&
    clientId !== undefined
  ) {
    // #region cross-app-access
    const crossAppAccess: McpCrossAppAccessOptions = {
      // The user's ID token from the enterprise identity provider (or a function giving a fresh one).
      idToken,
      idpTokenEndpoint,
      idpClientId,
      // This application as the MCP server's authorization server knows it.
      clientId,
      ...(clientSecret === undefined ? undefined : { clientSecret }),
    };
    return { crossAppAccess };
    // #endregion
  }
  if (scenario.client_id !== undefined && scenario.private_key_pem !== undefined) {
    const authProvider = new PrivateKeyJwtProvider({
      clientId: scenario.client_id,
      privateKey: scenario.private_key_pem,
      algorithm: scenario.signing_algorithm ?? "ES256",
    });
    return { authProvider };
  }
  if (
    scenarioName.startsWith("auth/client-credentials") &&
    clientId !== undefined &&
    clientSecret !== undefined
  ) {
    return { authProvider: new ClientCredentialsProvider({ clientId, clientSecret }) };
  }
  if (!scenarioName.startsWith("auth/")) return {};
  // #region oauth-authorization-code
  const redirectUrl = "http://127.0.0.1:3000/callback";
  const provider = new AuthorizationCodeProvider({
    redirectUrl,
    clientName: "routekit-conformance-client",
    // A Client ID Metadata Document: used where the authorization server supports them.
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    ...(clientId === undefined
      ? undefined
      : {
          preRegistered: {
            client_id: clientId,
            redirect_uris: [redirectUrl],
            ...(clientSecret === undefined ? undefined : { client_secret: clientSecret }),
          },
        }),
  });
  return { authProvider: provider, authorizationCode: () => provider.takeCode() };
  // #endregion
}

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
    ...authOptionsOf(),
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
