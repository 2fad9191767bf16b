// A new project's use of the packed client (tests/system/test_typescript_package.py
// installs the tarball into an empty project, type-checks this with tsc --strict
// against the package's own declarations, and runs it against a live service).
// It plays both seats of a whole game, then prints what it saw as JSON.
import { PatchworkClient, ProblemError, type Game, type MoveRequest } from "patchwork-client";

const url = process.env["PATCHWORK_URL"];
if (url === undefined) throw new Error("PATCHWORK_URL must name the service");
const client = new PatchworkClient(url);

// The declarations are real types, not `any`: a move the API has no name for does not compile.
export function neverCalled(gameId: string, token: string): Promise<Game> {
  // @ts-expect-error `jump` is no action of a MoveRequest
  return client.move(gameId, token, { action: "jump" });
}

const { game, tokens } = await client.createGame({ players: [{ name: "Ann" }, { name: "Bea" }], seed: 42 });
let state: Game = game;
let moves = 0;
while (state.status === "active") {
  const seat = state.turn;
  const token = seat === null ? null : tokens[seat];
  if (token == null) throw new Error(`no token for seat ${seat}`);
  // Advancing is always legal while choosing; a leather patch is placed where the first legal move says.
  const legal = await client.legalMoves(state.id);
  const move: MoveRequest | undefined = legal.moves.find((m) => m.action === "advance") ?? legal.moves.find((m) => m.action === "place_leather");
  if (move === undefined) throw new Error(`no advance nor leather among ${JSON.stringify(legal.moves.slice(0, 3))}`);
  state = await client.move(state.id, token, move, { ifMatch: state.version });
  moves += 1;
  if (moves > 500) throw new Error("the game does not end");
}

// The end, as the event stream tells it.
let ended: unknown = null;
for await (const event of client.follow(state.id)) {
  if (event.type === "end") {
    ended = event.result;
    break;
  }
}

// An analysis asked for is pending (202), not a result: no bot worker computes it here.
const asked = await client.requestAnalysis(state.id);
const analysis = await client.analysis(state.id);
const record = await client.record(state.id);
let refused: string | null = null;
await client.move(state.id, tokens[0] ?? "", { action: "advance" }).catch((error: unknown) => {
  if (error instanceof ProblemError) refused = error.problem?.code ?? null;
});

console.log(
  JSON.stringify({
    id: state.id,
    moves,
    status: state.status,
    result: state.result,
    ended,
    asked: asked.status,
    analysis: analysis.status,
    record_moves: (await client.moves(state.id)).length,
    record_starts: record.slice(0, 1),
    refused,
  }),
);
