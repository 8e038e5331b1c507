// The cross-app access option on its own, with no import of the MCP SDK: the published
// declarations of @routekit/mcp name this type, and the SDK's client types need the DOM library.
import type { OptionCheck } from "@routekit/core/internal";

/**
 * Enterprise-managed authorization (SEP-990, "cross-app access") for a Streamable HTTP server:
 * the user's ID token from the enterprise identity provider is exchanged there for an ID-JAG (an
 * identity assertion authorization grant, RFC 8693 token exchange), which the MCP server's
 * authorization server trades for an access token (RFC 7523 JWT-bearer grant). No browser and no
 * consent screen: the identity provider's policy decides.
 */
export interface McpCrossAppAccessOptions {
  /**
   * The user's OpenID Connect ID token, issued by the identity provider for `idpClientId`: a string,
   * or a function asked each time a new access token is needed (ID tokens expire).
   */
  idToken: string | (() => string | Promise<string>);
  /** The identity provider's token endpoint, where the ID token is exchanged (http(s) URL). */
  idpTokenEndpoint: string;
  /** This application's client id at the identity provider. */
  idpClientId: string;
  /** Its client secret there, if it has one (sent with HTTP Basic authentication). */
  idpClientSecret?: string;
  /** This application's client id at the MCP server's authorization server (pre-registered). */
  clientId: string;
  /** Its client secret there, if it has one (the authorization server's metadata picks the method). */
  clientSecret?: string;
  /** Scopes asked for, space-separated (default none: the grant's own). */
  scope?: string;
}

/** The `crossAppAccess` option of `mcpTools`, checked with the others (`crossAppAccess.clientId`). */
export const CROSS_APP_ACCESS_CHECK = {
  type: "object",
  options: {
    idToken: {
      type: "custom",
      required: true,
      expected: "a non-empty string or a function that returns one",
      check: (value: unknown) => typeof value === "function" || (typeof value === "string" && value !== ""),
    },
    idpTokenEndpoint: { type: "uri", schemes: ["http", "https"], required: true },
    idpClientId: { type: "string", nonEmpty: true, required: true },
    idpClientSecret: { type: "string", secret: true },
    clientId: { type: "string", nonEmpty: true, required: true },
    clientSecret: { type: "string", secret: true },
    scope: { type: "string" },
  },
} as const satisfies OptionCheck;
