import type { IncomingMessage } from "node:http";
import type { ResolvedConsoleOptions } from "./console-options.js";
import { tokenMatches, tokenOf } from "./token-check.js";

/** Longest request URL accepted (path and query). */
export const MAX_URL_LENGTH = 4096;
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Why a request is refused before it reaches a handler, or undefined when it may go on. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/**
 * The checks every request passes: a bounded URL, a Host header naming this console when it is
 * bound to loopback (a page on another site cannot reach it through DNS rebinding), the token when
 * one is set, and for changes (POST) an Origin that is the console's own, if the browser sent one.
 */
export function refusalOf(
  request: IncomingMessage,
  url: URL,
  options: ResolvedConsoleOptions,
  port: number,
): Refusal | undefined {
  const host = request.headers.host ?? "";
  const loopback = LOOPBACK_NAMES.includes(options.host) || options.host === "::1";
  if (loopback && !LOOPBACK_NAMES.some((name) => host === `${name}:${port}`)) {
    return { status: 403, message: `unexpected Host header '${host.slice(0, 100)}'` };
  }
  if (options.token !== undefined && !tokenMatches(options.token, tokenOf(request, url))) {
    return { status: 401, message: "missing or wrong console token" };
  }
  if (request.method === "POST") {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) {
      return { status: 403, message: `cross-origin request from '${origin.slice(0, 100)}' refused` };
    }
  }
  return undefined;
}
