// followTournament(id): a tournament's event stream (GET /tournaments/{id}/events),
// resumed with Last-Event-ID across dropped streams (resumable.ts). Its events
// are notices: GET /tournaments/{id} is the truth they tell of.
import type { PatchworkClient } from "./http.js";
import { resumableStream, type ResumeOptions } from "./resumable.js";
import type { TournamentEvent, TournamentEventType } from "./types.js";

export type FollowTournamentOptions = ResumeOptions;

const EVENT_TYPES: ReadonlySet<string> = new Set<TournamentEventType>([
  "tournament",
  "round_start",
  "game_end",
  "standings",
  "finished",
  "cancelled",
]);
// After these the tournament has nothing more to tell.
const LAST_EVENTS: ReadonlySet<string> = new Set<TournamentEventType>(["finished", "cancelled"]);

/**
 * The tournament as it is (`tournament`, unless resuming with `after`), then
 * its events as they come, each once, until `finished` or `cancelled` (the
 * last one yielded), a 204, or `signal` aborts. A `tournament` snapshot comes
 * again after a reconnect the service cannot resume (the events since are no
 * longer kept, or none had come yet: a snapshot has no id of its own until
 * then): it is the whole tournament as it is, nothing between is missed. A
 * refusal other than 503 or 429 (404: no such tournament) is thrown as a
 * ProblemError. Events of types this client does not know are skipped.
 */
export async function* followTournament(
  client: PatchworkClient,
  tournamentId: string,
  options: FollowTournamentOptions = {},
): AsyncGenerator<TournamentEvent, void, undefined> {
  const path = `/tournaments/${encodeURIComponent(tournamentId)}/events`;
  for await (const message of resumableStream(client, path, {}, options)) {
    if (!EVENT_TYPES.has(message.event)) continue;
    yield { type: message.event, id: message.lastEventId, data: JSON.parse(message.data) } as TournamentEvent;
    if (LAST_EVENTS.has(message.event)) return;
  }
}
