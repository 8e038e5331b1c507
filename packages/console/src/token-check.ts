import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** The token a request carries: `Authorization: Bearer <token>`, else `?token=` in its URL. */
export function tokenOf(request: IncomingMessage, url: URL): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === "string" && authorization.startsWith("Bearer ")) {
    return authorization.slice("Bearer ".length).trim();
  }
  return url.searchParams.get("token") ?? undefined;
}

/** Compares in constant time (over digests, so the length does not leak either). */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}
