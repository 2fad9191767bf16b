// A whole game against a bot: create it, follow its events, and answer each
// of our turns with the move the greedy hint suggests.
//
//   npm run build && PATCHWORK_URL=http://127.0.0.1:8000 npm run example -- search-quick
//
// It acts on the events of `follow`, never on a move's POST answer: by the
// time that answer comes, the stream may have shown our move and the bot's
// reply already (docs/api-guide.md, "Your move on the stream before its
// answer"), and waiting for an event that has come would wait forever.
import { PatchworkClient, type BotLevel, type Game, type GameResult, type MoveRequest } from "../src/index.js";

export interface PlayedGame {
  gameId: string;
  /** Every version the events showed, in the order they came. */
  versions: number[];
  result: GameResult;
}

export async function playAgainstBot(client: PatchworkClient, level: BotLevel, seed?: number): Promise<PlayedGame> {
  const created = await client.createGame({
    players: [{ name: "Example" }, { name: `Bot (${level})`, bot: level }],
    ...(seed === undefined ? {} : { seed }),
  });
  const gameId = created.game.id;
  const token = created.tokens[0];
  if (token == null) throw new Error("seat 0 is ours: it must have a token");
  const versions: number[] = [];
  for await (const event of client.follow(gameId)) {
    if (event.type === "end") return { gameId, versions, result: event.result };
    versions.push(event.version);
    if (isOurTurn(event.game)) await client.move(gameId, token, await nextMove(client, event.game), { ifMatch: event.version });
  }
  throw new Error(`the events of ${gameId} ended before the game did`);
}

function isOurTurn(game: Game): boolean {
  return game.status === "active" && game.turn === 0;
}

async function nextMove(client: PatchworkClient, game: Game): Promise<MoveRequest> {
  const hint = await client.hint(game.id);
  // A hint is for the version it names; ours is the one the event showed.
  if (hint.version !== game.version) throw new Error(`hint for version ${hint.version}, not ${game.version}`);
  return hint.move;
}

async function main(): Promise<void> {
  const client = new PatchworkClient(process.env["PATCHWORK_URL"] ?? "http://127.0.0.1:8000");
  const levels = (await client.bots()).map((bot) => bot.id);
  const level = levels.find((id): id is BotLevel => id === (process.argv[2] ?? "greedy"));
  if (level === undefined) throw new Error(`the levels are ${levels.join(", ")}`);
  const played = await playAgainstBot(client, level);
  const [ours, theirs] = played.result.scores;
  const outcome = played.result.winner === 0 ? "won" : "lost";
  console.log(`game ${played.gameId}: we ${outcome} ${ours} to ${theirs} against ${level}, ${played.versions.length} versions`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
