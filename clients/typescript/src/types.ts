// Names for the schemas of openapi.yaml, as openapi-typescript generates them
// into api.ts (`npm run generate`): what a client writes and what it reads.
import type { components } from "./api.js";
import type { JsonAnswer } from "./outcome.js";

type Schemas = components["schemas"];

// Requests.
export type CreateGameRequest = Schemas["CreateGameRequest"];
export type PlayerSetup = Schemas["PlayerSetup"];
export type MoveRequest = Schemas["MoveRequest"];
export type Placement = Schemas["Placement"];
export type Cell = Schemas["Cell"];
export type NameSeatRequest = Schemas["NameSeatRequest"];
export type CreatePlayerRequest = Schemas["CreatePlayerRequest"];

// Answers.
export type Game = Schemas["Game"];
export type GameCreated = Schemas["GameCreated"];
export type GameResult = Schemas["GameResult"];
export type Player = Schemas["Player"];
// Who plays a seat when no person does: the level id of the service's own bot, `true` for a bot account
// (an outside engine that moves through the API, as a person would), null for a person.
export type SeatBot = Player["bot"];
export type MoveRecord = Schemas["MoveRecord"];
export type MoveEvent = Schemas["MoveEvent"];
export type LegalMoves = Schemas["LegalMoves"];
export type LegalMove = Schemas["LegalMove"];
export type Hint = Schemas["Hint"];
export type Bot = Schemas["Bot"];
export type BotLevel = NonNullable<Schemas["BotLevelOrNull"]>;
export type Patch = Schemas["Patch"];
export type Problem = Schemas["Problem"];
export type ProblemCode = Schemas["ProblemCode"];
export type Seat = Schemas["Seat"];
export type PlayerProfile = Schemas["PlayerProfile"];
// Issue 41: the player's own profile (its vacation bank) and its vacation.
export type MyProfile = Schemas["MyProfile"];
export type Vacation = Schemas["Vacation"];
// Issue 41: a player's webhooks and their delivery log (docs/api-guide.md#webhooks).
export type WebhookEvent = Schemas["WebhookEvent"];
export type Webhook = Schemas["Webhook"];
export type NewWebhook = Schemas["NewWebhook"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type PlayerCreated = Schemas["PlayerCreated"];
export type Joined = Schemas["Joined"];
export type Rematch = Schemas["Rematch"];
export type GamesPage = Schemas["GamesPage"];
export type GameSummary = Schemas["GameSummary"];

// Issue 38: challenges, offers, watching.
export type CreateChallengeRequest = Schemas["CreateChallengeRequest"];
export type DeclineChallengeRequest = Schemas["DeclineChallengeRequest"];
export type Challenge = Schemas["Challenge"];
export type MyChallenges = Schemas["MyChallenges"];
export type Offer = Schemas["Offer"];
export type OfferEvent = Schemas["OfferEvent"];
export type TakebackRecord = Schemas["TakebackRecord"];
export type Watchers = Schemas["Watchers"];

// Issue 41: a line of a player's finished games (GET /players/{id}/games.ndjson): the Game and its record.
export type PlayerGameLine = Schemas["PlayerGameLine"];

// Issue 39: a tournament's game names its tournament and round.
export type GameTournament = Schemas["GameTournament"];

// The player's stream (`GET /players/me/events`): each event's `data`, as the operation describes it.
export type PlayerEventType = Schemas["PlayerStreamEvent"]["event"];
export type PlayerEvent =
  | {
      type: "game_start";
      id: string;
      data: { game: string; seat: Seat; my_turn: boolean; tournament?: GameTournament };
    }
  | { type: "your_turn"; id: string; data: { game: string; seat: Seat; version: number } }
  | { type: "game_end"; id: string; data: { game: string; seat: Seat; version: number; result: GameResult } }
  | { type: "rematch_offer"; id: string; data: { game: string; seat: Seat; expires_at: string } }
  | { type: "low_time"; id: string; data: { game: string; seat: Seat; remaining_ms: number; deadline: string } }
  | { type: "challenge"; id: string; data: { challenge: Challenge } }
  | { type: "challenge_declined"; id: string; data: { challenge: Challenge } };

// Issue 39: tournaments.
export type CreateTournamentRequest = Schemas["CreateTournamentRequest"];
export type Tournament = Schemas["Tournament"];
export type TournamentSummary = Schemas["TournamentSummary"];
export type TournamentsPage = Schemas["TournamentsPage"];
export type TournamentPlayer = Schemas["TournamentPlayer"];
export type TournamentStanding = Schemas["TournamentStanding"];
export type TournamentRound = Schemas["TournamentRound"];
export type TournamentPairing = Schemas["TournamentPairing"];

// A tournament's stream (`GET /tournaments/{id}/events`): each event's `data`, as the operation describes it.
export type TournamentEventType = Schemas["TournamentStreamEvent"]["event"];
export type TournamentEvent =
  | { type: "tournament"; id: string; data: Tournament }
  | { type: "round_start"; id: string; data: { round: number; pairings: TournamentPairing[] } }
  | { type: "game_end"; id: string; data: { round: number; game: string; winner: "first" | "second"; margin: number } }
  | { type: "standings"; id: string; data: { standings: TournamentStanding[] } }
  | { type: "finished"; id: string; data: { standings: TournamentStanding[] } }
  | { type: "cancelled"; id: string; data: Record<string, never> };

// The rest of the API (issue 42): the lobby, seeks, analysis, pictures, the service's own state.
// Answers without a schema name of their own are the operation's answer, as generated.
export type LobbyPage = Schemas["LobbyPage"];
export type LobbyGame = Schemas["LobbyGame"];
export type JoinRequest = Schemas["JoinRequest"];
export type MyGames = Schemas["MyGames"];
export type MyGame = MyGames["games"][number];
export type StreamTicket = JsonAnswer<"issueStreamTicket", 201>;
export type CreateSeekRequest = Schemas["CreateSeekRequest"];
export type Seek = Schemas["Seek"];
export type Analysis = Schemas["Analysis"];
/** The body of an analysis' 202: `{ status: "pending" }`. */
export type AnalysisPending = JsonAnswer<"requestAnalysis", 202>;
export type OfferBody = Schemas["OfferBody"];
export type Health = Schemas["Health"];
export type Readiness = Schemas["Readiness"];
export type Leaderboard = JsonAnswer<"getLeaderboard", 200>;
