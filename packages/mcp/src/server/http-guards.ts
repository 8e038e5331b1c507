import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Why a request was refused before it reached MCP: the status and the message sent. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

/** What the guards check a request against. */
export interface GuardSettings {
  /** Accepted `Origin` values; a request without `Origin` (not from a browser) passes. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Accepted `Host` values, or undefined to accept any. */
  readonly allowedHosts: ReadonlySet<string> | undefined;
  /** The sha-256 of the bearer token, when one is required. */
  readonly tokenDigest: Buffer | undefined;
}

/**
 * The checks before any MCP handling, in the spec's order of concern: `Host` and `Origin` against
 * DNS rebinding (a web page must not reach a local server through a name it controls), then the
 * bearer token. Returns the refusal, or undefined when the request may go on.
 */
export function guardRequest(request: IncomingMessage, settings: GuardSettings): Refusal | undefined {
  const host = request.headers.host;
  if (
    settings.allowedHosts !== undefined &&
    (host === undefined || !settings.allowedHosts.has(host.toLowerCase()))
  ) {
    return { status: 403, message: `Host '${host ?? ""}' is not allowed` };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !settings.allowedOrigins.has(origin.toLowerCase())) {
    return { status: 403, message: `Origin '${origin}' is not allowed` };
  }
  if (settings.tokenDigest !== undefined) {
    const header = request.headers.authorization ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const given = match?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), settings.tokenDigest)) {
      return {
        status: 401,
        message: given === undefined ? "a bearer token is required" : "the bearer token is not valid",
        headers: { "www-authenticate": 'Bearer realm="mcp"' },
      };
    }
  }
  return undefined;
}

/** The sha-256 of a token: compared in constant time whatever the lengths. */
export function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** The origins and hosts a loopback server at `port` is reached by. */
export function loopbackNames(port: number): { origins: string[]; hosts: string[] } {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return { hosts, origins: hosts.flatMap((host) => [`http://${host}`, `https://${host}`]) };
}

/** True for an address only this machine reaches. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
