import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  EmptyResultSchema,
  type ProgressToken,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { listenForProgress, type ProgressUpdate } from "./progress.js";

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How long a result waits at most for the client to confirm it has handled the call's progress. */
const CONFIRM_TIMEOUT_MS = 1_000;

/**
 * Sends the progress a call reports to the client that asked for it, as `notifications/progress`
 * with the request's token.
 *
 * A client forgets a request's progress token when its result arrives, and the SDK's `Client`
 * hands a notification to its `onprogress` one promise turn after reading it but settles a result
 * at once: when a notification and the result arrive in one read (a call that reports progress and
 * ends at once; a busy client), the progress is dropped, however early it was written. So a call
 * that sent progress ends with a `ping` to the client before its result is sent: a client handles
 * its messages in order, so by the time it answers, every notification before it has been handled.
 */
export class ProgressForwarding {
  readonly #token: ProgressToken;
  readonly #extra: CallExtra;
  readonly #stop: () => void;
  #sent = false;

  constructor(callId: string, token: ProgressToken, extra: CallExtra) {
    this.#token = token;
    this.#extra = extra;
    this.#stop = listenForProgress(callId, (update) => this.#send(update));
  }

  /**
   * Stops forwarding. Resolves once the client has handled the notifications sent (it answered the
   * ping), at once when none were sent or `closing` fired, and after a second at most otherwise.
   */
  async finish(closing: AbortSignal): Promise<void> {
    this.#stop();
    if (!this.#sent || closing.aborted || this.#extra.signal.aborted) return;
    try {
      await this.#extra.sendRequest({ method: "ping" }, EmptyResultSchema, {
        timeout: CONFIRM_TIMEOUT_MS,
        signal: closing,
      });
    } catch {
      // No answer in time, a cancelled call or a closed connection: the result goes (or not) as is.
    }
  }

  #send(update: ProgressUpdate): void {
    if (this.#extra.signal.aborted) return;
    this.#sent = true;
    this.#extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: this.#token, ...update },
      })
      .catch(() => undefined);
  }
}
