// mcpTools' cross-app access (SEP-990) against real servers on 127.0.0.1: an identity provider's
// token endpoint (RFC 8693 token exchange), an authorization server (metadata and the RFC 7523
// JWT-bearer grant) and routekit's MCP endpoint behind a bearer token, with its protected resource
// metadata on the same http: server. Each side records what it received; the bad answers of each
// side fail the connection with an error that says which side and what it answered.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createConsoleLogger, createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpCrossAppAccessOptions, type McpHttpServer, mcpTools, mountMcpHttp } from "../src/index.js";
import { createFixtureContext } from "./fixtures/tool-routes.js";

const ACCESS_TOKEN = "xaa-access-token-0123456789";
const ID_TOKEN = "header.id-token-of-alice.signature";
const ID_JAG = "header.id-jag-for-alice.signature";
const CLIENT_ID = "routekit-agent";
const CLIENT_SECRET = "agent-secret";
const IDP_CLIENT_ID = "routekit-agent-at-idp";

/** One request a loopback OAuth server received: its path, form fields and Authorization header. */
interface Received {
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

type Answer = { status: number; body: unknown };

/** A JSON server on 127.0.0.1 whose answers the test sets, recording every request. */
interface OAuthServer {
  readonly url: string;
  readonly received: Received[];
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

async function startOAuthServer(answer: (request: Received) => Answer): Promise<OAuthServer> {
  const received: Received[] = [];
  const state = { answer };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const entry = { path, form, authorization: request.headers.authorization };
      received.push(entry);
      const { status, body } = state.answer(entry);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    get answer() {
      return state.answer;
    },
    set answer(next) {
      state.answer = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const NOT_FOUND: Answer = { status: 404, body: { error: "not_found" } };

/** The identity provider: an ID-JAG for the test's ID token, refusing anything else. */
function idpAnswer(request: Received): Answer {
  if (request.path !== "/oauth2/token") return NOT_FOUND;
  if (request.form.subject_token !== ID_TOKEN) {
    return { status: 400, body: { error: "invalid_grant", error_description: "ID token expired" } };
  }
  return {
    status: 200,
    body: {
      access_token: ID_JAG,
      issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      token_type: "N_A",
    },
  };
}

/** The authorization server: its metadata, and an access token for the test's ID-JAG. */
function asAnswer(base: () => string): (request: Received) => Answer {
  return (request) => {
    if (request.path === "/.well-known/oauth-authorization-server") {
      return {
        status: 200,
        body: {
          issuer: base(),
          authorization_endpoint: `${base()}/authorize`,
          token_endpoint: `${base()}/token`,
          response_types_supported: ["code"],
          grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        },
      };
    }
    if (request.path !== "/token") return NOT_FOUND;
    if (request.form.assertion !== ID_JAG) {
      return { status: 400, body: { error: "invalid_grant", error_description: "unknown grant" } };
    }
    return { status: 200, body: { access_token: ACCESS_TOKEN, token_type: "Bearer", expires_in: 3600 } };
  };
}

describe("mcpTools({ crossAppAccess }) on 127.0.0.1", () => {
  let idp: OAuthServer;
  let authorizationServer: OAuthServer;
  let serverContext: RouteContext;
  let mcp: McpHttpServer;
  const clients: RouteContext[] = [];

  beforeAll(async () => {
    idp = await startOAuthServer(idpAnswer);
    let asBase = "";
    authorizationServer = await startOAuthServer(asAnswer(() => asBase));
    asBase = authorizationServer.url;
    serverContext = await createFixtureContext();
    serverContext.use(httpPlugin());
    await serverContext.addRoutes((r) => {
      // RFC 9728: where the SDK client learns the MCP server's authorization server.
      r.from("http:/.well-known/oauth-protected-resource/mcp").setBody(() => ({
        resource: `${httpServerOf(serverContext).url}/mcp`,
        authorization_servers: [asBase],
      }));
    });
    await serverContext.start();
    mcp = await mountMcpHttp(serverContext, { tools: ["echo"], token: ACCESS_TOKEN });
  });

  afterEach(async () => {
    for (const context of clients.splice(0)) await context.stop({ timeoutMs: 5_000 });
    idp.received.length = 0;
    authorizationServer.received.length = 0;
    idp.answer = idpAnswer;
    authorizationServer.answer = asAnswer(() => authorizationServer.url);
  });

  afterAll(async () => {
    await mcp.close();
    await serverContext.stop();
    await idp.close();
    await authorizationServer.close();
  });

  function options(overrides: Partial<McpCrossAppAccessOptions> = {}): McpCrossAppAccessOptions {
    return {
      idToken: ID_TOKEN,
      idpTokenEndpoint: `${idp.url}/oauth2/token`,
      idpClientId: IDP_CLIENT_ID,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      ...overrides,
    };
  }

  function clientContext(crossAppAccess: McpCrossAppAccessOptions): RouteContext {
    const context = createContext({ logger: createConsoleLogger("off") });
    clients.push(context);
    context.use(
      mcpTools({ name: "xaa", url: mcp.url, reconnect: false, connectTimeoutMs: 5_000, crossAppAccess }),
    );
    return context;
  }

  it("exchanges the ID token for an ID-JAG, trades it for an access token and calls the tool", async () => {
    let asked = 0;
    const context = clientContext(
      options({
        idToken: () => {
          asked++;
          return ID_TOKEN;
        },
        scope: "tools:read",
      }),
    );
    await context.start();
    expect(await context.tools.call("xaa_echo", { text: "hello" })).toBe("echo: hello");
    expect(asked).toBe(1);

    const exchanges = idp.received.filter((request) => request.path === "/oauth2/token");
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.form).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      subject_token: ID_TOKEN,
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      audience: authorizationServer.url,
      resource: mcp.url,
      scope: "tools:read",
      // No secret at the identity provider: the client id goes in the form.
      client_id: IDP_CLIENT_ID,
    });
    const grants = authorizationServer.received.filter((request) => request.path === "/token");
    expect(grants).toHaveLength(1);
    expect(grants[0]?.form).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: ID_JAG,
      scope: "tools:read",
    });
    expect(grants[0]?.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
    );
  });

  it("authenticates at the identity provider with HTTP Basic when it has a secret", async () => {
    const context = clientContext(options({ idpClientSecret: "idp-secret" }));
    await context.start();
    const [exchange] = idp.received;
    expect(exchange?.authorization).toBe(
      `Basic ${Buffer.from(`${IDP_CLIENT_ID}:idp-secret`).toString("base64")}`,
    );
    expect(exchange?.form.client_id).toBeUndefined();
  });

  it("fails the connection when the identity provider refuses the ID token, saying what it answered", async () => {
    const context = clientContext(options({ idToken: "header.someone-else.signature" }));
    await expect(context.start()).rejects.toThrow(
      new RegExp(
        `mcp 'xaa': cannot connect to the MCP server .*: mcp 'xaa': the identity provider's token endpoint ${idp.url}/oauth2/token did not exchange the ID token for an ID-JAG: it answered 'invalid_grant' \\(ID token expired\\)`,
      ),
    );
    // Nothing reached the authorization server's token endpoint.
    expect(authorizationServer.received.filter((request) => request.path === "/token")).toHaveLength(0);
  });

  it("fails when the identity provider's answer has no ID-JAG", async () => {
    idp.answer = () => ({
      status: 200,
      body: { issued_token_type: "urn:ietf:params:oauth:token-type:id-jag" },
    });
    const context = clientContext(options());
    await expect(context.start()).rejects.toThrow(
      /its answer has no access_token \(the ID-JAG\) or token_type/,
    );
  });

  it("fails when the identity provider does not answer in time", async () => {
    const silent = createServer(() => undefined);
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    try {
      const { port } = silent.address() as AddressInfo;
      const context = createContext({ logger: createConsoleLogger("off") });
      clients.push(context);
      context.use(
        mcpTools({
          name: "xaa",
          url: mcp.url,
          reconnect: false,
          connectTimeoutMs: 500,
          crossAppAccess: options({ idpTokenEndpoint: `http://127.0.0.1:${port}/token` }),
        }),
      );
      const started = Date.now();
      // The connection's deadline (the SDK's request timeout) and the token exchange's own (which
      // aborts the request to the identity provider) are both connectTimeoutMs: either may report.
      await expect(context.start()).rejects.toThrow(
        /cannot connect to the MCP server .*(Request timed out|no answer within 500 ms)/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("fails when the authorization server answers the JWT-bearer grant without an access_token", async () => {
    const base = asAnswer(() => authorizationServer.url);
    authorizationServer.answer = (request) =>
      request.path === "/token" ? { status: 200, body: { token_type: "Bearer" } } : base(request);
    const context = clientContext(options());
    await expect(context.start()).rejects.toThrow(
      /mcp 'xaa': cannot connect to the MCP server .*: the answer does not have the expected shape \(access_token: Invalid input: expected string, received undefined\)/,
    );
  });

  it("fails when the authorization server refuses the client, with its OAuth error", async () => {
    const base = asAnswer(() => authorizationServer.url);
    authorizationServer.answer = (request) =>
      request.path === "/token"
        ? {
            status: 401,
            body: { error: "invalid_client", error_description: "unknown client routekit-agent" },
          }
        : base(request);
    const context = clientContext(options());
    await expect(context.start()).rejects.toThrow(
      /cannot connect to the MCP server .*unknown client routekit-agent/,
    );
  });

  it("fails when the idToken function throws or gives no token, without sending anything", async () => {
    const throwing = clientContext(
      options({
        idToken: () => {
          throw new Error("the user is signed out");
        },
      }),
    );
    await expect(throwing.start()).rejects.toThrow(
      /option 'crossAppAccess.idToken' gave no ID token: the user is signed out/,
    );
    const empty = clientContext(options({ idToken: () => "" }));
    await expect(empty.start()).rejects.toThrow(
      /option 'crossAppAccess.idToken' must give a non-empty string of at most 16384 characters \(found 0 characters\)/,
    );
    expect(idp.received).toHaveLength(0);
  });

  it("checks the option, naming what was found", () => {
    const url = "http://127.0.0.1:1/mcp";
    expect(() =>
      mcpTools({ name: "x", url, crossAppAccess: options({ idpTokenEndpoint: "ftp://idp/token" }) }),
    ).toThrow(
      /option 'crossAppAccess.idpTokenEndpoint' must be an absolute http or https URI \(found string "ftp:\/\/idp\/token"\)/,
    );
    expect(() => mcpTools({ name: "x", url, crossAppAccess: options({ clientId: "" }) })).toThrow(
      /option 'crossAppAccess.clientId' must be a non-empty string \(found string ""\)/,
    );
    expect(() => mcpTools({ name: "x", url, crossAppAccess: options({ idToken: 5 as never }) })).toThrow(
      /option 'crossAppAccess.idToken' must be a non-empty string or a function that returns one \(found number 5\)/,
    );
    expect(() =>
      mcpTools({ name: "x", url, crossAppAccess: { ...options(), audience: "a" } as never }),
    ).toThrow(/unknown option 'crossAppAccess.audience' \(expected one of idToken, idpTokenEndpoint/);
    expect(() => mcpTools({ name: "x", url, crossAppAccess: "token" as never })).toThrow(
      /option 'crossAppAccess' must be an object with options idToken, idpTokenEndpoint, idpClientId/,
    );
    expect(() => mcpTools({ name: "x", command: "node", crossAppAccess: options() })).toThrow(
      /option 'crossAppAccess' needs a 'url'/,
    );
    expect(() =>
      mcpTools({
        name: "x",
        url,
        crossAppAccess: options(),
        authProvider: { tokens: () => undefined } as never,
      }),
    ).toThrow(/replaces 'authProvider' and 'authorizationCode'/);
  });
});
