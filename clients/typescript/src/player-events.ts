// followPlayer(token): the player's own event stream (GET /players/me/events),
// across dropped connections. A player token never goes in a URL and a
// stream request sends it as a bearer token here (fetch can send headers);
// on reconnect, Last-Event-ID names the last event seen, and the service
// sends every event kept since (docs/api-guide.md, "Your games and your
// stream"). Its events are notices: the lists they tell of are the truth.
import { sleep } from "./answers.js";
import { Backoff } from "./backoff.js";
import type { PatchworkClient } from "./http.js";
import { readEventStream } from "./sse.js";
import type { PlayerEvent, PlayerEventType } from "./types.js";

export interface FollowPlayerOptions {
  /** Resume after this event id (the `id` of an event seen before; `"0-0"`: every event kept). Default: from now. */
  after?: string;
  /** Stops following: the iteration ends (the abort's reason is thrown). */
  signal?: AbortSignal;
  /** The longest wait between attempts to reconnect (default 30 000 ms). */
  maxReconnectDelayMs?: number;
}

const EVENT_TYPES: ReadonlySet<string> = new Set<PlayerEventType>([
  "game_start",
  "your_turn",
  "game_end",
  "rematch_offer",
  "challenge",
  "challenge_declined",
]);

/**
 * The player's events as they come, until `signal` aborts; a reconnect
 * names the last one seen, so none kept by the service is missed or repeated.
 * A stream that drops or is refused (503, 429) is opened again after the
 * wait the service asks for; any other refusal (401: not a player's token)
 * is thrown as a ProblemError. Events of types this client does not know
 * are skipped.
 */
export async function* followPlayer(
  client: PatchworkClient,
  playerToken: string,
  options: FollowPlayerOptions = {},
): AsyncGenerator<PlayerEvent, void, undefined> {
  const backoff = new Backoff(options.maxReconnectDelayMs ?? 30_000);
  let last: string | null = options.after ?? null;
  for (;;) {
    const headers: Record<string, string> = { Accept: "text/event-stream", Authorization: `Bearer ${playerToken}` };
    if (last !== null) headers["Last-Event-ID"] = last;
    const init: RequestInit = { headers, cache: "no-store" };
    if (options.signal !== undefined) init.signal = options.signal;
    let response: Response | null = null;
    try {
      response = await client.fetch(`${client.baseUrl}/players/me/events`, init);
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof TypeError)) throw error;
    }
    let wait: number;
    if (response !== null && response.status === 200 && response.body !== null) {
      const stream = readEventStream(response.body, last ?? "");
      let delivered = false;
      try {
        for await (const message of stream.messages) {
          backoff.delivered();
          delivered = true;
          last = message.lastEventId || last;
          if (!EVENT_TYPES.has(message.event)) continue;
          yield { type: message.event, id: message.lastEventId, data: JSON.parse(message.data) } as PlayerEvent;
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
