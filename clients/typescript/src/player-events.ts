// followPlayer(token): the player's own event stream (GET /players/me/events),
// across dropped connections. A player token never goes in a URL and a
// stream request sends it as a bearer token here (fetch can send headers);
// on reconnect, Last-Event-ID names the last event seen, and the service
// sends every event kept since (docs/api-guide.md, "Your games and your
// stream"). Its events are notices: the lists they tell of are the truth.
import type { PatchworkClient } from "./http.js";
import { resumableStream, type ResumeOptions } from "./resumable.js";
import type { PlayerEvent, PlayerEventType } from "./types.js";

export type FollowPlayerOptions = ResumeOptions;

const EVENT_TYPES: ReadonlySet<string> = new Set<PlayerEventType>([
  "game_start",
  "your_turn",
  "game_end",
  "rematch_offer",
  "low_time",
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
  const headers = { Authorization: `Bearer ${playerToken}` };
  for await (const message of resumableStream(client, "/players/me/events", headers, options)) {
    if (!EVENT_TYPES.has(message.event)) continue;
    yield { type: message.event, id: message.lastEventId, data: JSON.parse(message.data) } as PlayerEvent;
  }
}
