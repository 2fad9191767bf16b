// The request bodies and answers that README.md and docs/api-guide.md show,
// written as a TypeScript client writes them, with the types openapi-typescript
// generates from openapi.yaml with its default options. tests/test_typescript_client.py
// type-checks this file with tsc --strict: a change of the spec that breaks
// what the docs tell clients to send, or what they show coming back, fails it;
// test/docs.test.ts sends them to a live service and expects the answers shown.
// Each value is the one in the docs (same fields, same numbers).
import { PatchworkClient } from "../src/index.js";
import type {
  Cell,
  CreateGameRequest,
  GameCreated,
  GameResult,
  Hint,
  LegalMove,
  LegalMoves,
  MoveRecord,
  MoveRequest,
  Placement,
  Problem,
} from "../src/index.js";

// README, "A game turn with curl".
export const readmeCreate: CreateGameRequest = { seed: 7, players: [{ name: "Ada" }, { name: "Grace" }] };
const readmeLegal: LegalMove = {
  action: "buy",
  patch_id: 11,
  placement: { row: 0, col: 0, rotation: 0, flipped: false, cells: [[0, 1], [1, 0], [1, 1], [2, 1]] },
};
export const readmeLegalMoves: LegalMoves = { version: 1, turn: 0, phase: "choose", moves: [readmeLegal] };
export const readmeBuy: MoveRequest = { action: "buy", patch_id: 11, placement: { row: 0, col: 0, rotation: 90 } };
export const readmeAdvance: MoveRequest = { action: "advance" };
export const readmeNotYourTurn: Problem = {
  type: "/problems/not-your-turn",
  title: "Not your turn",
  status: 409,
  detail: "seat 0 cannot advance: it is seat 1's turn",
  code: "not_your_turn",
};
export const readmeHistory: { moves: MoveRecord[] } = {
  moves: [
    {
      number: 1,
      seat: 0,
      action: "buy",
      patch_id: 11,
      placement: { row: 0, col: 0, rotation: 90, flipped: false, cells: [[0, 1], [1, 0], [1, 1], [1, 2]] },
      outcome: { buttons: -2, income: 0, from: 0, to: 2, leather_won: 0, bonus: false },
    },
  ],
};

// docs/api-guide.md, "Resources": creating a game, and the three moves.
export const guideEveryDefault: CreateGameRequest = {};
export const guideCreateAll: CreateGameRequest = {
  players: [{ name: "Player 1" }, { name: "Player 2" }],
  seed: 7,
  first_player: 1,
  time_board: "original",
};
export const guideMoves: MoveRequest[] = [
  { action: "advance" },
  { action: "buy", patch_id: 11, placement: { row: 0, col: 0, rotation: 90 } },
  { action: "place_leather", row: 4, col: 4 },
];

// "Idempotency": the same buy, and a key reused with another body.
export const guideKeyReused: Problem = {
  type: "/problems/idempotency-key-reused",
  title: "Idempotency key reused with another body",
  status: 422,
  detail: "This Idempotency-Key was used with a different body.",
  code: "idempotency_key_reused",
};

// "Strict requests": the typo the service refuses with 400 is refused by the types already.
export const guideTypo: MoveRequest = {
  action: "buy",
  patch_id: 21,
  // @ts-expect-error `rotaton` is no field of a placement
  placement: { row: 0, col: 0, rotaton: 90 },
};

// "Placements and orientation": each form, and both together.
export const byOrientation: Placement = { row: 0, col: 0, rotation: 90 };
export const byOrientationFlipped: Placement = { row: 0, col: 0, flipped: true };
export const byCells: Placement = { cells: [[0, 1], [1, 0], [1, 1], [1, 2]] };
export const bothForms: Placement = { row: 1, col: 0, rotation: 90, flipped: false, cells: [[0, 1], [1, 0], [1, 1], [1, 2]] };
export const guidePlacementRecord: MoveRecord = {
  number: 1,
  seat: 0,
  action: "buy",
  patch_id: 11,
  placement: { row: 0, col: 0, rotation: 90, flipped: false, cells: [[0, 1], [1, 0], [1, 1], [1, 2]] },
  outcome: { buttons: -2, income: 0, from: 0, to: 2, leather_won: 0, bonus: false },
};
// A cell is a pair: a third coordinate is no cell.
// @ts-expect-error a cell is [row, col]
export const notACell: Cell = [0, 1, 2];
// "Strict requests": an optional field sent as null is the same as leaving it out, in either form.
export const nullsByOrientation: MoveRequest = {
  action: "buy",
  patch_id: 11,
  placement: { row: 0, col: 0, rotation: 90, flipped: null, cells: null },
};
export const nullsByCells: MoveRequest = {
  action: "buy",
  patch_id: 11,
  placement: { cells: [[0, 1], [1, 0], [1, 1], [1, 2]], row: null, col: null, rotation: null, flipped: null },
};
export const nullsCreate: CreateGameRequest = { seed: 7, players: null, patch_order: null, first_player: null, time_board: null };
// "send the entry the player picks, as it is": a legal move is a move request.
export const pickedAsItIs: MoveRequest = readmeLegal;

// "Resigning".
export const guideResigned: GameResult = { scores: [-154, -155], winner: 0, reason: "resigned" };
export const guideResignRecord: MoveRecord = {
  number: 4,
  seat: 1,
  action: "resign",
  outcome: { buttons: 0, income: 0, from: 2, to: 2, leather_won: 0, bonus: false },
};

// "Hints": the hint's move is sent as it is.
export const guideHint: Hint = {
  move: {
    action: "buy",
    patch_id: 30,
    placement: { row: 7, col: 0, rotation: 0, flipped: false, cells: [[7, 0], [7, 2], [8, 0], [8, 1], [8, 2]] },
  },
  version: 4,
};
export const hintPlayed: MoveRequest = guideHint.move;

// "Computer players": a bot seat, and its token null.
export const guideAgainstBot: CreateGameRequest = { players: [{ name: "Ada" }, { name: "Bot", bot: "greedy" }] };
export const guideBotTokens: GameCreated["tokens"] = ["<seat 0 token>", null];

// "A whole turn with curl": seat 1 buys patch 21 giving its cells, and the history shows both forms.
export const guideByCells: MoveRequest = {
  action: "buy",
  patch_id: 21,
  placement: { cells: [[0, 0], [1, 0], [2, 0], [1, 1], [0, 2], [1, 2], [2, 2]] },
};
export const guideVersionMismatch: Problem = {
  type: "/problems/version-mismatch",
  title: "Game has moved on",
  status: 412,
  detail: "The game is at version 2, which If-Match does not name.",
  code: "version_mismatch",
};

// "Your move on the stream before its answer": the loop of the guide, as it is there.
export async function guideFollowLoop(): Promise<void> {
  const client = new PatchworkClient("http://127.0.0.1:8000");
  const { game, tokens } = await client.createGame({ players: [{ name: "Ada" }, { name: "Bot", bot: "greedy" }] });
  for await (const event of client.follow(game.id)) {
    if (event.type === "end") break;
    // Decide from the event's game; the move's answer may come after the
    // stream has shown this move and the bot's reply, and is not waited for.
    if (event.game.status === "active" && event.game.turn === 0 && tokens[0]) {
      const { move } = await client.hint(game.id);
      await client.move(game.id, tokens[0], move, { ifMatch: event.version });
    }
  }
}

// "Tournaments", from the TypeScript client: the guide's lines, as they are there.
export async function guideTournament(client: PatchworkClient, annToken: string, bobToken: string): Promise<void> {
  const tournament = await client.createTournament(annToken, {
    name: "Friday Swiss", system: "swiss", rounds: 5, clock: { initial_s: 600, increment_s: 5 },
    rated: true, starts_at: "2026-12-04T18:00:00Z", max_players: 64,
  });
  await client.joinTournament(tournament.id, bobToken);
  for await (const event of client.followTournament(tournament.id)) {
    if (event.type === "round_start") console.log(`round ${event.data.round}`, event.data.pairings);
    if (event.type === "finished") console.log(event.data.standings);
  }
}
