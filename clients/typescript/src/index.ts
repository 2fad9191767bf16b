// The Patchwork service's TypeScript client: `new PatchworkClient(url)`, its
// requests, and `client.follow(gameId)` over the game's event stream.
export {
  PatchworkClient,
  type Answer,
  type ClientOptions,
  type GamesQuery,
  type MoveOptions,
  type PictureOptions,
  type PlayerGamesQuery,
  type PlayerOptions,
  type TournamentsQuery,
} from "./http.js";
export type { Done, JsonAnswer, JsonRequest, OperationId, Outcome, Pending, QueryOf } from "./outcome.js";
export { ProblemError, retryAfterMs } from "./answers.js";
export { follow, type FollowOptions, type GameEvent, type GameNotice } from "./follow.js";
export { followPlayer, type FollowPlayerOptions } from "./player-events.js";
export { followTournament, type FollowTournamentOptions } from "./tournament-events.js";
export { readEventStream, type StreamMessage } from "./sse.js";
export type * from "./types.js";
export type { components, operations, paths } from "./api.js";
