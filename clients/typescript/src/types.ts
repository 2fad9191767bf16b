// Names for the schemas of openapi.yaml, as openapi-typescript generates them
// into api.ts (`npm run generate`): what a client writes and what it reads.
import type { components } from "./api.js";

type Schemas = components["schemas"];

// Requests.
export type CreateGameRequest = Schemas["CreateGameRequest"];
export type PlayerSetup = Schemas["PlayerSetup"];
export type MoveRequest = Schemas["MoveRequest"];
export type Placement = Schemas["Placement"];
export type Cell = Schemas["Cell"];
export type NameSeatRequest = Schemas["NameSeatRequest"];

// Answers.
export type Game = Schemas["Game"];
export type GameCreated = Schemas["GameCreated"];
export type GameResult = Schemas["GameResult"];
export type Player = Schemas["Player"];
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
