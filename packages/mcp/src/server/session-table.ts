import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Refusal } from "./http-guards.js";
import type { McpSession } from "./mcp-transport.js";

/** One Streamable HTTP session and how it is used. */
export interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpSession;
  /** Who opened it: the client's address. */
  readonly client: string;
  /** When a request of it last started or ended (ms since the epoch). */
  lastUsed: number;
  /** Its requests whose responses are still open (a call in flight, an SSE stream). */
  open: number;
}

/** How many sessions a server keeps, and when one may be closed to make room. */
export interface SessionLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  /** A session with no open response and no request for this long may be closed for a new one. */
  readonly sessionIdleMs: number;
}

/**
 * The sessions of one Streamable HTTP endpoint. A session is in use while one of its responses is
 * open (a call in flight, an SSE stream) and for `sessionIdleMs` after its last request: a session
 * in use is never closed to make room. When a new session would pass `maxSessionsPerClient` (for
 * its client's address) or `maxSessions`, the least recently used idle session (of that client,
 * then of any) is closed; when there is none the new session is refused (429, 503), so no client
 * can take a session another is using.
 */
export class SessionTable {
  readonly #limits: SessionLimits;
  readonly #sessions = new Map<string, Session>();
  /** Sessions admitted and not yet initialized, by client. */
  readonly #pending = new Map<string, number>();
  #pendingTotal = 0;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  has(id: string): boolean {
    return this.#sessions.has(id);
  }

  set(id: string, session: Session): void {
    this.#sessions.set(id, session);
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  clear(): void {
    this.#sessions.clear();
  }

  /** Counts `response` as the session's until it closes: the session is in use meanwhile. */
  track(session: Session, response: ServerResponse): void {
    session.open++;
    session.lastUsed = Date.now();
    response.once("close", () => {
      session.open--;
      session.lastUsed = Date.now();
    });
  }

  /**
   * Makes room for a new session of `client`: closes idle sessions if needed and reserves the
   * place (give it back with `settle`), or returns why the session is refused.
   */
  async admit(client: string): Promise<Refusal | undefined> {
    const now = Date.now();
    const { maxSessions, maxSessionsPerClient, sessionIdleMs } = this.#limits;
    const closing: Session[] = [];
    const ofClient = this.#countOf(client) + (this.#pending.get(client) ?? 0);
    // A cap per client as large as the whole is the whole's (its refusal says maxSessions).
    if (ofClient >= maxSessionsPerClient && maxSessionsPerClient < maxSessions) {
      const idle = this.#leastRecentlyUsedIdle(now, client, closing);
      if (idle === undefined) {
        return refusal(
          429,
          `Too many sessions: this client (${client}) has ${ofClient} open (maxSessionsPerClient ` +
            `${maxSessionsPerClient}) and none has been idle for sessionIdleMs (${sessionIdleMs} ms); ` +
            "end one with DELETE or retry later",
          this.#retryAfterSeconds(now, client),
        );
      }
      closing.push(idle);
    }
    if (this.#sessions.size - closing.length + this.#pendingTotal >= maxSessions) {
      const idle = this.#leastRecentlyUsedIdle(now, undefined, closing);
      if (idle === undefined) {
        return refusal(
          503,
          `Server busy: ${maxSessions} sessions are open (maxSessions) and none has been idle for ` +
            `sessionIdleMs (${sessionIdleMs} ms); sessions in use are never closed to make room, retry later`,
          this.#retryAfterSeconds(now, undefined),
        );
      }
      closing.push(idle);
    }
    for (const session of closing) {
      if (session.transport.sessionId !== undefined) this.#sessions.delete(session.transport.sessionId);
    }
    this.#pending.set(client, (this.#pending.get(client) ?? 0) + 1);
    this.#pendingTotal++;
    await Promise.all(closing.map((session) => session.server.close().catch(() => undefined)));
    return undefined;
  }

  /** Gives back the place `admit` reserved (the session was initialized, or not). */
  settle(client: string): void {
    const left = (this.#pending.get(client) ?? 0) - 1;
    if (left > 0) this.#pending.set(client, left);
    else this.#pending.delete(client);
    this.#pendingTotal = Math.max(0, this.#pendingTotal - 1);
  }

  #countOf(client: string): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.client === client) count++;
    return count;
  }

  #isIdle(session: Session, now: number): boolean {
    return session.open === 0 && now - session.lastUsed >= this.#limits.sessionIdleMs;
  }

  #leastRecentlyUsedIdle(
    now: number,
    client: string | undefined,
    excluded: readonly Session[],
  ): Session | undefined {
    let oldest: Session | undefined;
    for (const session of this.#sessions.values()) {
      if ((client !== undefined && session.client !== client) || excluded.includes(session)) continue;
      if (!this.#isIdle(session, now)) continue;
      if (oldest === undefined || session.lastUsed < oldest.lastUsed) oldest = session;
    }
    return oldest;
  }

  /** When the first session (of `client`, or of any) without an open response turns idle, in whole seconds. */
  #retryAfterSeconds(now: number, client: string | undefined): number {
    let soonest = this.#limits.sessionIdleMs;
    for (const session of this.#sessions.values()) {
      if ((client !== undefined && session.client !== client) || session.open > 0) continue;
      soonest = Math.min(soonest, Math.max(0, session.lastUsed + this.#limits.sessionIdleMs - now));
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }
}

function refusal(status: number, message: string, retryAfterSeconds: number): Refusal {
  return { status, message, headers: { "retry-after": String(retryAfterSeconds) } };
}

/** The client a request comes from: its address (an IPv4-mapped IPv6 address as plain IPv4). */
export function clientOf(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return "unknown";
  return remoteAddress.startsWith("::ffff:") ? remoteAddress.slice(7) : remoteAddress;
}
