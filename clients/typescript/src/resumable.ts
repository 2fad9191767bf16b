// A stream whose events carry ids (the player's, a tournament's), followed
// across dropped connections: a reconnect sends Last-Event-ID, the last event
// seen, and the service sends every event it kept since, so none is missed or
// repeated. What the messages mean is the caller's (player-events.ts,
// tournament-events.ts).
import { sleep } from "./answers.js";
import { Backoff } from "./backoff.js";
import type { PatchworkClient } from "./http.js";
import { readEventStream, type StreamMessage } from "./sse.js";

export interface ResumeOptions {
  /** Resume after this event id (the `id` of an event seen before; `"0-0"`: every event kept). Default: from now. */
  after?: string;
  /** Stops following: the iteration ends (the abort's reason is thrown). */
  signal?: AbortSignal;
  /** The longest wait between attempts to reconnect (default 30 000 ms). */
  maxReconnectDelayMs?: number;
}

/**
 * The messages of the stream at `path` (with `headers` besides Accept and
 * Last-Event-ID), each once, until the caller stops iterating, `signal`
 * aborts, or the service answers 204 (nothing more will come). A stream
 * that drops or is refused (503, 429) is opened again after the wait the
 * service asks for (backoff.ts); any other refusal is thrown as a ProblemError.
 */
export async function* resumableStream(
  client: PatchworkClient,
  path: string,
  headers: Record<string, string>,
  options: ResumeOptions,
): AsyncGenerator<StreamMessage, void, undefined> {
  const backoff = new Backoff(options.maxReconnectDelayMs ?? 30_000);
  let last: string | null = options.after ?? null;
  for (;;) {
    const sent: Record<string, string> = { ...headers, Accept: "text/event-stream" };
    if (last !== null) sent["Last-Event-ID"] = last;
    const init: RequestInit = { headers: sent, cache: "no-store" };
    if (options.signal !== undefined) init.signal = options.signal;
    let response: Response | null = null;
    try {
      response = await client.fetch(client.baseUrl + path, init);
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof TypeError)) throw error;
    }
    if (response !== null && response.status === 204) return;
    let wait: number;
    if (response !== null && response.status === 200 && response.body !== null) {
      const stream = readEventStream(response.body, last ?? "");
      let delivered = false;
      try {
        for await (const message of stream.messages) {
          backoff.delivered();
          delivered = true;
          last = message.lastEventId || last;
          yield message;
        }
      } catch (error) {
        // The body broke off (a reset, a proxy's timeout): reconnect below.
        if (options.signal?.aborted || !(error instanceof TypeError)) throw error;
      }
      wait = backoff.afterStream(stream.retryMs(), delivered);
    } else {
      wait = await backoff.afterFailure(response);
    }
    await sleep(wait, options.signal);
  }
}
