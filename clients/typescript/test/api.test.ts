// The rest of the API through the client, against the live service (PATCHWORK_URL,
// started by tests/system/test_typescript_client.py, with a bot worker): the
// service's state and catalogue, the lobby and joining, seeks, a player's games,
// a game's pictures and single moves, and an analysis, pending (202) then done.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PatchworkClient, ProblemError } from "../src/index.js";
import { assertProblem } from "./helpers.js";

const client = new PatchworkClient(process.env["PATCHWORK_URL"] ?? "");

describe("the service and its catalogue", () => {
  test("health, readiness, patches, a patch's picture, the contract, the leaderboard", async () => {
    assert.equal((await client.health()).status, "ok");
    assert.deepEqual(await client.ready(), { status: "ready", bots: "available" });
    const patches = await client.patches();
    assert.equal(patches.length, 33);
    assert.match(await client.patchSvg(patches[0]?.id ?? 1, { rotation: 90, flipped: true }), /<svg[\s>]/);
    assert.match(await client.openapi(), /operationId: getGame\b/);
    assert.ok(Array.isArray(await client.leaderboard()));
    // /metrics is served only where the operator exposes it; elsewhere a 404.
    const metrics = await client.metrics().catch((error: unknown) => error);
    assert.ok(typeof metrics === "string" || (metrics instanceof ProblemError && metrics.status === 404), String(metrics));
  });
});

describe("the lobby", () => {
  test("a game with an open seat is listed, joined under a name, and leaves the lobby", async () => {
    const ann = await client.createPlayer("Ann");
    const created = await client.createGame({ players: [{ name: "Ann" }, { open: true }] });
    assert.equal(created.tokens[1], null);
    const page = await client.lobby();
    assert.ok(page.games.some((g) => g.id === created.game.id), "not in the lobby");
    assert.ok((await client.listGames({ status: "open" })).games.some((g) => g.id === created.game.id));
    const key = globalThis.crypto.randomUUID();
    const joined = await client.join(created.game.id, { name: "Bea" }, { idempotencyKey: key });
    assert.equal(joined.seat, 1);
    assert.equal(joined.game.players[1]?.name, "Bea");
    // The same key again: the same answer, the seat's token included (a lost answer is had again).
    assert.deepEqual(await client.join(created.game.id, { name: "Bea" }, { idempotencyKey: key }), joined);
    assert.ok(!(await client.lobby()).games.some((g) => g.id === created.game.id), "still in the lobby");
    await assert.rejects(client.join(created.game.id, { playerToken: ann.token }), (e) => assertProblem(e, 409, "seat_taken"));
  });
});

describe("seeks", () => {
  // A time control no other test seeks with: these two pair with each other only.
  const clock = { initial_s: 777, increment_s: 7 };

  test("two compatible seeks become one game; a waiting seek is cancelled", async () => {
    const [ann, bea, cid] = [await client.createPlayer("Ann"), await client.createPlayer("Bea"), await client.createPlayer("Cid")];
    const waiting = await client.createSeek(ann.token, { clock, rated: false });
    assert.equal(waiting.status, "waiting");
    const paired = await client.createSeek(bea.token, { clock, rated: false });
    assert.equal(paired.status, "paired");
    assert.ok(paired.game !== null);
    const first = await client.seek(ann.token, waiting.id);
    assert.deepEqual([first.status, first.game], ["paired", paired.game]);
    const mine = await client.myGames(ann.token, "active");
    assert.deepEqual(mine.games.map((g) => [g.game.id, g.seat]), [[paired.game, 0]]);

    const alone = await client.createSeek(cid.token, { clock: { initial_s: 778, increment_s: 7 }, rated: false });
    assert.equal((await client.cancelSeek(cid.token, alone.id)).status, "cancelled");
    assert.equal((await client.seek(cid.token, alone.id)).status, "cancelled");
    const ticket = await client.streamTicket(cid.token);
    assert.ok(ticket.ticket.length > 0 && ticket.expires_in > 0);
  });
});

describe("a finished game", () => {
  test("its moves one by one, its pictures, and its analysis: pending (202), then done", async () => {
    const { game, tokens } = await client.createGame({ players: [{ name: "Ann" }, { name: "Bea" }], seed: 31 });
    const [ann, bea] = tokens;
    assert.ok(ann && bea);
    await assert.rejects(client.analysis(game.id), (e) => assertProblem(e, 409, "game_not_finished"));
    await client.move(game.id, ann, { action: "advance" });
    await client.move(game.id, bea, { action: "advance" });
    await client.resign(game.id, ann);
    const history = await client.moves(game.id);
    assert.deepEqual(await client.moveRecord(game.id, 1), history[0]);
    assert.match(await client.boardSvg(game.id, { language: "fr" }), /<svg[\s>]/);
    assert.ok((await client.boardText(game.id)).length > 0);

    await assert.rejects(client.analysis(game.id), (e) => assertProblem(e, 404, "analysis_not_requested"));
    const asked = await client.requestAnalysis(game.id);
    assert.equal(asked.status, "pending");
    assert.deepEqual(asked.body, { status: "pending" });
    assert.ok(asked.location?.endsWith(`/games/${game.id}/analysis`), String(asked.location));
    const analysis = await client.waitForAnalysis(game.id, { maxWaitMs: 120_000 });
    assert.equal(analysis.version, (await client.game(game.id)).version);
    const now = await client.analysis(game.id);
    assert.ok(now.status === "done", "the same analysis for ever once done");
    assert.deepEqual(now.value, analysis);
    const chart = await client.analysisSvg(game.id);
    assert.ok(chart.status === "done");
    assert.match(chart.value, /<svg[\s>]/);
  });
});
