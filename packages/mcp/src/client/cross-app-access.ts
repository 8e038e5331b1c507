import { fetchToken, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthProtectedResourceMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { createDeadline } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { messageOf } from "./call-error.js";
import type { McpCrossAppAccessOptions } from "./cross-app-access-options.js";

/** RFC 8693 token exchange, and the token types SEP-990 exchanges (an ID token for an ID-JAG). */
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
/** RFC 7523: a JWT (here the ID-JAG) as an authorization grant. */
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Longest ID token accepted from `idToken` (a JWT; a few KB at most). */
const MAX_ID_TOKEN_CHARS = 16_384;

/** The discovery the SDK did on a 401, kept for the token exchange's audience and resource. */
interface Discovered {
  readonly authorizationServerUrl: string;
  readonly authorizationServerMetadata: AuthorizationServerMetadata | undefined;
  readonly resourceMetadata: OAuthProtectedResourceMetadata | undefined;
}

/**
 * The SDK's `OAuthClientProvider` for SEP-990: the SDK discovers the authorization server (its
 * `saveDiscoveryState` hook tells this provider which one), calls `prepareTokenRequest`, which
 * exchanges the ID token for an ID-JAG at the identity provider with the SDK's `fetchToken`, and
 * then sends the JWT-bearer grant itself, authenticating the client as the authorization server's
 * metadata says, and keeps the tokens here.
 */
export class CrossAppAccessProvider implements OAuthClientProvider {
  readonly #options: McpCrossAppAccessOptions;
  readonly #serverUrl: URL;
  readonly #where: string;
  readonly #timeoutMs: number;
  #client: OAuthClientInformationMixed;
  #tokens: OAuthTokens | undefined;
  #discovered: Discovered | undefined;

  constructor(options: McpCrossAppAccessOptions, serverUrl: URL, where: string, timeoutMs: number) {
    this.#options = options;
    this.#serverUrl = serverUrl;
    this.#where = where;
    this.#timeoutMs = timeoutMs;
    this.#client = {
      client_id: options.clientId,
      ...(options.clientSecret === undefined ? undefined : { client_secret: options.clientSecret }),
    };
  }

  /** None: the flow needs no user agent. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientId,
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      ...(this.#options.scope === undefined ? undefined : { scope: this.#options.scope }),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return this.#client;
  }

  /** The SDK stamps the client with the authorization server that accepted it. */
  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#client = client;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
  }

  saveDiscoveryState(state: {
    authorizationServerUrl: string;
    authorizationServerMetadata?: AuthorizationServerMetadata;
    resourceMetadata?: OAuthProtectedResourceMetadata;
  }): void {
    this.#discovered = {
      authorizationServerUrl: state.authorizationServerUrl,
      authorizationServerMetadata: state.authorizationServerMetadata,
      resourceMetadata: state.resourceMetadata,
    };
  }

  redirectToAuthorization(): never {
    throw new RoutekitMcpError(
      "CALL_FAILED",
      `${this.#where}: cross-app access does not send a user agent to the authorization server`,
    );
  }

  saveCodeVerifier(): void {
    // No authorization-code flow, so no PKCE verifier.
  }

  codeVerifier(): never {
    throw new RoutekitMcpError("CALL_FAILED", `${this.#where}: cross-app access has no PKCE code verifier`);
  }

  /** The JWT-bearer grant of a fresh ID-JAG, which the SDK posts to the authorization server. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const assertion = await this.#exchangeIdToken(scope);
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    if (scope) params.set("scope", scope);
    return params;
  }

  /**
   * RFC 8693 at the identity provider: the ID token for an ID-JAG whose audience is the
   * authorization server the SDK discovered and whose resource is the MCP server.
   */
  async #exchangeIdToken(scope: string | undefined): Promise<string> {
    const options = this.#options;
    const discovered = this.#discovered;
    if (discovered === undefined) {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `${this.#where}: the authorization server is not known yet (the SDK asked for a token before discovery)`,
      );
    }
    const audience = discovered.authorizationServerMetadata?.issuer ?? discovered.authorizationServerUrl;
    const resource = discovered.resourceMetadata?.resource ?? this.#serverUrl.href;
    const idToken = await this.#idToken();
    const endpoint = options.idpTokenEndpoint;
    const identityProvider: OAuthClientProvider = {
      redirectUrl: undefined,
      clientMetadata: { redirect_uris: [] },
      clientInformation: () => ({
        client_id: options.idpClientId,
        ...(options.idpClientSecret === undefined ? undefined : { client_secret: options.idpClientSecret }),
      }),
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => "",
      prepareTokenRequest: () => {
        const params = new URLSearchParams({
          grant_type: TOKEN_EXCHANGE_GRANT,
          requested_token_type: ID_JAG_TYPE,
          subject_token: idToken,
          subject_token_type: ID_TOKEN_TYPE,
          audience,
          // Sent as the metadata spells it (the SDK's URL form would add a "/" to a bare origin).
          resource,
        });
        if (scope) params.set("scope", scope);
        return params;
      },
    };
    const deadline = createDeadline(this.#timeoutMs);
    try {
      const answer = await fetchToken(identityProvider, new URL(endpoint).origin, {
        // fetchToken reads the endpoint (and the client authentication methods) from the metadata;
        // an identity provider given by its token endpoint has no other metadata to offer.
        metadata: {
          issuer: new URL(endpoint).origin,
          authorization_endpoint: endpoint,
          token_endpoint: endpoint,
          response_types_supported: [],
        },
        fetchFn: (url, init) => fetch(url, { ...init, signal: deadline.signal }),
      });
      return answer.access_token;
    } catch (error) {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `${this.#where}: the identity provider's token endpoint ${endpoint} did not exchange the ID token for an ID-JAG: ${refusalOf(error, deadline.signal, this.#timeoutMs)}`,
        { cause: error },
      );
    } finally {
      deadline.clear();
    }
  }

  async #idToken(): Promise<string> {
    const given = this.#options.idToken;
    let idToken: unknown;
    try {
      idToken = typeof given === "function" ? await given() : given;
    } catch (error) {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `${this.#where}: option 'crossAppAccess.idToken' gave no ID token: ${messageOf(error)}`,
        { cause: error },
      );
    }
    if (typeof idToken !== "string" || idToken === "" || idToken.length > MAX_ID_TOKEN_CHARS) {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `${this.#where}: option 'crossAppAccess.idToken' must give a non-empty string of at most ${MAX_ID_TOKEN_CHARS} characters (found ${typeof idToken === "string" ? `${idToken.length} characters` : typeof idToken})`,
      );
    }
    return idToken;
  }
}

/** What the identity provider answered, as a sentence: its OAuth error, a bad answer, or no answer. */
function refusalOf(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `no answer within ${timeoutMs} ms`;
  if (error instanceof OAuthError) {
    return `it answered '${error.errorCode}'${error.message === "" ? "" : ` (${error.message})`}`;
  }
  if (error instanceof Error && error.name === "ZodError") {
    return "its answer has no access_token (the ID-JAG) or token_type";
  }
  return messageOf(error);
}
