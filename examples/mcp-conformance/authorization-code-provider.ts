// The OAuth client of the conformance suite's authorization-code scenarios: an in-memory
// `OAuthClientProvider` of the MCP SDK. Where a real application sends its user's browser to the
// authorization URL, this one follows the suite's authorization server itself (it approves at once
// and redirects with the code) and keeps the code for mcpTools' `authorizationCode` option.

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export class AuthorizationCodeProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;
  readonly clientMetadataUrl: string | undefined;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #codeVerifier: string | undefined;
  #code: string | undefined;

  constructor(options: {
    redirectUrl: string;
    clientName: string;
    clientMetadataUrl?: string;
    preRegistered?: OAuthClientInformationMixed;
  }) {
    this.redirectUrl = options.redirectUrl;
    this.clientMetadata = { client_name: options.clientName, redirect_uris: [options.redirectUrl] };
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.#client = options.preRegistered;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#client = client;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error("no PKCE code verifier was saved");
    return this.#codeVerifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "client") this.#client = undefined;
    if (scope === "all" || scope === "verifier") this.#codeVerifier = undefined;
  }

  /** Follows the authorization URL one hop and keeps the code its redirect carries. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const response = await fetch(authorizationUrl, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (location === null) {
      throw new Error(`the authorization server answered ${response.status} without a redirect`);
    }
    const code = new URL(location).searchParams.get("code");
    if (code === null) throw new Error(`the redirect to ${location} carries no code`);
    this.#code = code;
  }

  /** The code of the last authorization (what the redirect URI received), used once. */
  takeCode(): string {
    const code = this.#code;
    this.#code = undefined;
    if (code === undefined) throw new Error("no authorization has redirected yet");
    return code;
  }
}
