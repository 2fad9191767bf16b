// Issue 41 through the client, against the live service (PATCHWORK_URL, started by
// tests/system/test_typescript_client.py): a player's game written as a record,
// imported back to the same result, and read among the player's finished games.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PatchworkClient, type PlayerGameLine } from "../src/index.js";
import { assertProblem } from "./helpers.js";

const SERVICE = new URL(process.env["PATCHWORK_URL"] ?? "");
const client = new PatchworkClient(SERVICE.href);

describe("game records", () => {
  test("a game written as a record, imported back, and read among the player's finished games", async () => {
    const ann = await client.createPlayer("Ann");
    const bea = await client.createPlayer("Bea");
    const made = await client.createChallenge(ann.token, { to: bea.player.id, clock: null, rated: false, seat: 0 });
    const gameId = (await client.acceptChallenge(made.id, { playerToken: bea.token })).game.id;
    await client.move(gameId, ann.token, { action: "advance" });
    // Ann gives up while it is Bea's turn.
    const over = await client.resign(gameId, ann.token);

    const text = await client.record(gameId);
    assert.match(text, /\[Players "Ann" "Bea"\]\n/);
    assert.ok(text.endsWith("\n1. 0 .\n2. 0 resign\n"), text);
    assert.match(await client.record(gameId, 2), /\[Result "\*"\]\n\n1\. 0 \.\n$/);
    const imported = await client.importRecord(text);
    assert.notEqual(imported.id, gameId);
    assert.deepEqual(imported.result, over.result);
    assert.equal(imported.rated, false);

    const lines: PlayerGameLine[] = [];
    for await (const line of client.playerGames(ann.player.id, { rated: false, max: 10 })) lines.push(line);
    assert.deepEqual(lines.map((line) => line.game.id), [gameId]);
    assert.equal(lines[0]?.record, text);

    await client.importRecord("1. 0 LHAX\n").then(
      () => assert.fail("a record with no move LHAX was imported"),
      (error: unknown) => assertProblem(error, 422, "invalid_record"),
    );
  });
});
