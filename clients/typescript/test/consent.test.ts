// Issue 38 through the client, against the live service (PATCHWORK_URL, started by
// tests/system/test_typescript_client.py): challenges and blocks, a rematch and a
// takeback as offers, the lists of games, and the events that tell of them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PatchworkClient, type GameEvent, type GameNotice, type PlayerEvent } from "../src/index.js";
import { assertProblem, someone as somebody } from "./helpers.js";
import { Proxy } from "./proxy.js";

const client = new PatchworkClient(process.env["PATCHWORK_URL"] ?? "");
const CLOCK = { initial_s: 600, increment_s: 5 };

/** A new player, following its own stream from now on. */
const someone = (name: string) => somebody(client, name);

describe("challenges", () => {
  test("made, told, listed on both sides, accepted: one game, the challenger told of it", async () => {
    const [ann, bea] = [await someone("Ann"), await someone("Bea")];
    try {
      const made = await client.createChallenge(ann.token, { to: bea.id, clock: CLOCK, rated: false, seat: 0 });
      assert.equal(made.status, "pending");
      assert.equal(made.from.player_id, ann.id);
      assert.equal(made.to?.player_id, bea.id);
      const told = await bea.next("challenge");
      assert.equal(told.data.challenge.id, made.id);
      assert.deepEqual((await client.myChallenges(bea.token)).incoming.map((c) => c.id), [made.id]);
      assert.deepEqual((await client.myChallenges(ann.token)).outgoing.map((c) => c.id), [made.id]);
      const joined = await client.acceptChallenge(made.id, { playerToken: bea.token });
      assert.equal(joined.seat, 1);
      assert.deepEqual(joined.game.players.map((p) => p.player_id), [ann.id, bea.id]);
      assert.equal(joined.game.rated, false);
      assert.equal((await ann.next("game_start")).data.game, joined.game.id);
      const settled = await client.challenge(made.id);
      assert.equal(settled.status, "accepted");
      assert.equal(settled.game, joined.game.id);
      assert.deepEqual(await client.myChallenges(bea.token), { incoming: [], outgoing: [] });
      // Being played: on the list of active games, Ann's and everyone's.
      const active = await client.activeGames({ player: ann.id });
      assert.deepEqual(active.games.map((g) => g.id), [joined.game.id]);
      assert.deepEqual(active.games[0]?.players.map((p) => p.name), ["Ann", "Bea"]);
      await client.resign(joined.game.id, ann.token);
      assert.deepEqual((await client.activeGames({ player: ann.id })).games, []);
      const finished = await client.finishedGames(bea.id);
      assert.deepEqual(finished.games.map((g) => [g.id, g.result?.winner]), [[joined.game.id, 1]]);
      assert.equal(finished.next, null);
    } finally {
      ann.stop();
      bea.stop();
    }
  });

  test("declined with a reason the challenger hears; withdrawn; a blocked player's refused", async () => {
    const [ann, bea] = [await someone("Ann"), await someone("Bea")];
    try {
      const first = await client.createChallenge(ann.token, { to: bea.id, clock: CLOCK, rated: false, seat: null });
      const declined = await client.declineChallenge(first.id, bea.token, "too_fast");
      assert.equal(declined.status, "declined");
      const heard = await ann.next("challenge_declined");
      assert.equal(heard.data.challenge.id, first.id);
      assert.equal(heard.data.challenge.decline_reason, "too_fast");

      const second = await client.createChallenge(ann.token, { to: bea.id, clock: null, rated: false, seat: null });
      assert.equal((await client.withdrawChallenge(second.id, ann.token)).status, "cancelled");
      await assert.rejects(client.acceptChallenge(second.id, { playerToken: bea.token }), (e) =>
        assertProblem(e, 409, "challenge_not_pending"),
      );

      assert.deepEqual(await client.block(bea.token, ann.id), [ann.id]);
      assert.deepEqual(await client.blocks(bea.token), [ann.id]);
      await assert.rejects(client.createChallenge(ann.token, { to: bea.id, clock: null, rated: false, seat: null }), (e) =>
        assertProblem(e, 403, "blocked"),
      );
      assert.deepEqual(await client.unblock(bea.token, ann.id), []);
    } finally {
      ann.stop();
      bea.stop();
    }
  });

  test("an open challenge is accepted by a guest's name alone when unrated", async () => {
    const { token } = await client.createPlayer("Ann");
    const open = await client.createChallenge(token, { to: null, clock: null, rated: false, seat: 0 });
    const joined = await client.acceptChallenge(open.id, { name: "Zoé" });
    assert.deepEqual(joined.game.players.map((p) => p.name), ["Ann", "Zoé"]);
    assert.equal(joined.seat, 1);
  });
});

describe("the player's stream", () => {
  test("cut after each event, it resumes with Last-Event-ID: every challenge told once", async () => {
    const proxy = new Proxy(new URL(process.env["PATCHWORK_URL"] ?? ""));
    const proxied = new PatchworkClient(await proxy.start());
    const ann = await client.createPlayer("Ann");
    const bea = await client.createPlayer("Bea");
    const abort = new AbortController();
    proxy.cutStreamsAfter = [1, 1];
    try {
      const made: string[] = [];
      for (let n = 0; n < 3; n++) {
        made.push((await client.createChallenge(bea.token, { to: ann.player.id, clock: null, rated: false, seat: null })).id);
      }
      const told: PlayerEvent[] = [];
      for await (const event of proxied.followPlayer(ann.token, { after: "0-0", signal: abort.signal, maxReconnectDelayMs: 200 })) {
        told.push(event);
        if (told.length === 3) break;
      }
      assert.deepEqual(told.map((e) => (e.type === "challenge" ? e.data.challenge.id : e.type)), made);
      const streams = proxy.seen.filter((s) => s.path === "/players/me/events");
      assert.equal(streams.length, 3);
      // Each reconnect named the last event the one before delivered.
      assert.deepEqual(streams.map((s) => s.headers["last-event-id"]), ["0-0", told[0]?.id, told[1]?.id]);
    } finally {
      abort.abort();
      proxy.cutStreamsAfter = [];
      await proxy.close();
    }
  });
});

describe("offers", () => {
  test("a rematch is offered, declined, offered again and accepted: one next game", async () => {
    const [ann, bea] = [await someone("Ann"), await someone("Bea")];
    try {
      const challenge = await client.createChallenge(ann.token, { to: bea.id, clock: CLOCK, rated: false, seat: 0 });
      const { game } = await client.acceptChallenge(challenge.id, { playerToken: bea.token });
      await client.resign(game.id, bea.token);
      const offered = await client.rematch(game.id, ann.token);
      assert.ok(offered.status === "pending", "a 202: an offer, not a game");
      assert.deepEqual([offered.body.offer.kind, offered.body.offer.by], ["rematch", 0]);
      assert.equal((await bea.next("rematch_offer")).data.game, game.id);
      assert.equal((await client.game(game.id)).next_game, null);
      const declined = await client.dismissRematch(game.id, bea.token);
      assert.deepEqual([declined.kind, declined.status], ["rematch", "declined"]);
      assert.equal((await client.game(game.id)).next_game, null);

      assert.equal((await client.rematch(game.id, ann.token)).status, "pending");
      const answer = await client.rematch(game.id, bea.token);
      assert.ok(answer.status === "done", "Bea's asking accepts Ann's offer");
      const accepted = answer.value;
      // Seats swapped: Bea is seat 0 of the next game.
      assert.equal(accepted.seat, 0);
      assert.deepEqual(accepted.game.players.map((p) => p.player_id), [bea.id, ann.id]);
      assert.equal((await client.game(game.id)).next_game, accepted.game.id);
    } finally {
      ann.stop();
      bea.stop();
    }
  });

  test("a takeback is asked, told on the game's stream, and given: the position before the turn", async () => {
    const { game, tokens } = await client.createGame({ players: [{ name: "Ann" }, { name: "Bea" }], seed: 21 });
    const [ann, bea] = tokens;
    assert.ok(ann && bea);
    const abort = new AbortController();
    const events: (GameEvent | GameNotice)[] = [];
    const following = (async () => {
      for await (const event of client.follow(game.id, { notices: true, signal: abort.signal })) events.push(event);
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
    try {
      await client.move(game.id, ann, { action: "advance" });
      const asked = await client.takeback(game.id, ann);
      assert.ok(asked.status === "pending", "a 202: the offer stands");
      assert.deepEqual([asked.body.offer.kind, asked.body.offer.by], ["takeback", 0]);
      const given = await client.takeback(game.id, bea);
      assert.ok(given.status === "done", "Bea's asking gives the takeback");
      const after = given.value;
      assert.equal(after.version, 3);
      const before = await client.game(game.id, 1);
      assert.deepEqual([after.turn, after.players, after.market], [before.turn, before.players, before.market]);
      const history = await client.moves(game.id);
      assert.deepEqual(history.at(-1), { number: 2, seat: 0, action: "takeback", to_version: 1 });
      await until(() => events.some((e) => e.type === "move" && e.version === 3), "the takeback's move event");
      const offers = events.filter((e): e is Extract<GameNotice, { type: "offer" }> => e.type === "offer");
      assert.ok(offers.some((e) => e.offer.kind === "takeback" && e.offer.status === "pending"), "no offer event");
      assert.ok(events.some((e) => e.type === "watchers" && e.count >= 1), "no watchers event");
    } finally {
      abort.abort();
      await following;
    }
  });

  test("a takeback declined leaves the game as it was; a rated game refuses one", async () => {
    const { game, tokens } = await client.createGame({ players: [{ name: "Ann" }, { name: "Bea" }], seed: 22 });
    const [ann, bea] = tokens;
    assert.ok(ann && bea);
    await client.move(game.id, ann, { action: "advance" });
    assert.equal((await client.takeback(game.id, ann)).status, "pending");
    const declined = await client.dismissTakeback(game.id, bea);
    assert.deepEqual([declined.kind, declined.status], ["takeback", "declined"]);
    const now = await client.game(game.id);
    assert.equal(now.version, 2);
    assert.equal(now.offer, undefined);
    // Bea did not act last: hers is no takeback to ask.
    await assert.rejects(client.takeback(game.id, bea), (e) => assertProblem(e, 409, "takeback_not_allowed"));
  });
});

async function until(condition: () => boolean, what: string, boundMs = 10_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
