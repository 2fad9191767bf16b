// The client against a live service: PATCHWORK_URL (and PATCHWORK_LIMITED_URL,
// the same store behind RATE_LIMIT_CREATE=1) are started by
// tests/system/test_typescript_client.py, which runs `node --test` on these.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { PatchworkClient, type GameEvent } from "../src/index.js";
import { playAgainstBot } from "../examples/play-against-bot.js";
import { Proxy } from "./proxy.js";

const SERVICE = new URL(required("PATCHWORK_URL"));

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} must name the live service to test against`);
  return value;
}

/** Every event of the game until it ends. */
async function allEvents(client: PatchworkClient, gameId: string): Promise<GameEvent[]> {
  const events: GameEvent[] = [];
  for await (const event of client.follow(gameId)) events.push(event);
  return events;
}

/** The versions must run from the first one shown up to the last, each once. */
function assertEveryVersionOnce(events: GameEvent[], last: number): void {
  const versions = events.filter((e) => e.type !== "end").map((e) => e.version);
  const first = versions[0] ?? 0;
  assert.deepEqual(versions, Array.from({ length: last - first + 1 }, (_, i) => first + i));
  assert.equal(events.at(-1)?.type, "end");
  assert.equal(events.filter((e) => e.type === "end").length, 1);
}

describe("against the live service", () => {
  let proxy: Proxy;
  let direct: PatchworkClient;
  let proxied: PatchworkClient;

  before(async () => {
    proxy = new Proxy(SERVICE);
    proxied = new PatchworkClient(await proxy.start());
    direct = new PatchworkClient(SERVICE.href);
  });
  after(() => proxy.close());

  test("the example plays a whole game against a bot, every version shown once", async () => {
    const played = await playAgainstBot(direct, "greedy", 11);
    const moves = await direct.moves(played.gameId);
    const game = await direct.game(played.gameId);
    assert.equal(game.status, "finished");
    assert.deepEqual(played.result, game.result);
    // From the snapshot at version 1 to the last move, each once: nothing missed, nothing twice.
    assert.deepEqual(played.versions, Array.from({ length: moves.length + 1 }, (_, i) => i + 1));
  });

  test("your move's answer held until the stream showed it and the bot's reply: the game goes on", async () => {
    proxy.holdMovesForTheStream = true;
    try {
      const played = await playAgainstBot(proxied, "greedy", 12);
      const moves = await direct.moves(played.gameId);
      assert.deepEqual(played.versions, Array.from({ length: moves.length + 1 }, (_, i) => i + 1));
      // The race really happened: answers came after the stream had shown the bot's reply.
      assert.ok(proxy.heldMoves > 0, "no move's answer was held for the stream");
    } finally {
      proxy.holdMovesForTheStream = false;
    }
  });

  test("streams cut mid-game are resumed with Last-Event-ID: nothing missed, nothing twice", async () => {
    const created = await direct.createGame({ players: [{ name: "A", bot: "greedy" }, { name: "B", bot: "greedy" }], seed: 13 });
    const id = created.game.id;
    proxy.cutStreamsAfter = [3, 2, 2];
    let events: GameEvent[];
    try {
      events = await allEvents(proxied, id);
    } finally {
      proxy.cutStreamsAfter = [];
    }
    const game = await direct.game(id);
    assertEveryVersionOnce(events, game.version);
    assert.deepEqual((events.at(-1) as { result: unknown }).result, game.result);
    const streams = proxy.seen.filter((s) => s.path === `/games/${id}/events`);
    assert.ok(streams.length >= 4, `${streams.length} stream requests for 3 cuts`);
    // Each reconnect names the last version it had, which the stream showed just before the cut.
    const resumed = streams.slice(1).map((s) => Number(s.headers["last-event-id"]));
    const shown = events.filter((e) => e.type !== "end").map((e) => e.version);
    for (const version of resumed) assert.ok(shown.includes(version), `resumed after ${version}, never shown`);
    assert.equal(streams[0]?.headers["last-event-id"], undefined);
  });

  test("a resume answered with a snapshot: the moves in between come from the history", async () => {
    const created = await direct.createGame({ players: [{ name: "Ann" }, { name: "Bot", bot: "greedy" }], seed: 14 });
    const id = created.game.id;
    const token = created.tokens[0];
    assert.ok(token);
    proxy.cutStreamsAfter = [1]; // after the snapshot
    proxy.dropLastEventId = true;
    const events: GameEvent[] = [];
    try {
      for await (const event of proxied.follow(id)) {
        events.push(event);
        if (event.type === "game") {
          // While the stream is down: our move, and the bot's reply after it.
          await direct.move(id, token, { action: "advance" });
          await direct.resign(id, token);
        }
      }
    } finally {
      proxy.dropLastEventId = false;
      proxy.cutStreamsAfter = [];
    }
    const moves = await direct.moves(id);
    assertEveryVersionOnce(events, moves.length + 1);
    assert.deepEqual(
      events.filter((e) => e.type === "move").map((e) => (e.type === "move" ? e.move.number : 0)),
      moves.map((m) => m.number),
    );
    const streams = proxy.seen.filter((s) => s.path === `/games/${id}/events`);
    assert.equal(streams.length, 2);
  });

  test("a move whose answer is lost is sent again with its Idempotency-Key and applied once", async () => {
    const created = await direct.createGame({ seed: 15 });
    const id = created.game.id;
    const token = created.tokens[0];
    assert.ok(token);
    proxy.loseMoveAnswers = 1;
    const game = await proxied.move(id, token, { action: "advance" });
    const posts = proxy.seen.filter((s) => s.method === "POST" && s.path === `/games/${id}/moves`);
    assert.equal(game.version, 2);
    assert.equal((await direct.moves(id)).length, 1);
    assert.ok(posts.length >= 2, "the lost answer was not retried");
    assert.equal(posts[0]?.headers["idempotency-key"], posts[1]?.headers["idempotency-key"]);
  });

  test("the guest of an invite names its own seat, and the game shows the name", async () => {
    const { game, tokens } = await direct.createGame({ players: [{ name: "Ann" }, { name: "Player 2" }] });
    const guest = tokens[1];
    assert.ok(guest);
    const named = await direct.nameSeat(game.id, guest, "Zoé");
    assert.equal(named.seat, 1);
    assert.deepEqual(named.game.players.map((player) => player.name), ["Ann", "Zoé"]);
    assert.equal((await direct.game(game.id)).players[1]?.name, "Zoé");
  });
});

describe("against the rate-limited service", () => {
  test("a 429 is retried after its Retry-After", async () => {
    const proxy = new Proxy(new URL(required("PATCHWORK_LIMITED_URL")));
    const client = new PatchworkClient(await proxy.start());
    try {
      await client.createGame();
      const second = await client.createGame();
      assert.equal(second.game.version, 1);
      const creates = proxy.seen.filter((s) => s.method === "POST" && s.path === "/games");
      const refused = creates.findIndex((s) => s.status === 429);
      assert.ok(refused >= 0, `no 429 among ${creates.map((s) => s.status).join(", ")}`);
      assert.equal(creates.at(-1)?.status, 201);
      const retried = creates[refused + 1];
      assert.ok(retried !== undefined);
      const asked = Number(creates[refused]?.answer?.["retry-after"]);
      assert.ok(asked >= 1, "a 429 without Retry-After");
      // Sent again no sooner than asked (timers may fire a few ms early; the refusal was stamped on arrival).
      assert.ok(retried.at - (creates[refused]?.at ?? 0) >= asked * 1000 - 50, "retried before Retry-After");
    } finally {
      await proxy.close();
    }
  });
});
