// The docs' examples (examples/docs.ts), sent as typed, get the answers the
// docs show: a body the generated types accept is a body the service accepts.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PatchworkClient, ProblemError, type Problem } from "../src/index.js";
import * as docs from "../examples/docs.js";

const client = new PatchworkClient(process.env["PATCHWORK_URL"] ?? "");

/** A problem as the docs show it, but for `detail`: its wording is for people, and may change. */
function assertProblem(error: unknown, shown: Problem): void {
  assert.ok(error instanceof ProblemError, String(error));
  const { detail: _detail, ...rest } = error.problem ?? { detail: "" };
  const { detail: _shown, ...expected } = shown;
  assert.deepEqual(rest, expected);
}

/** A game made with the README's body (seed 7: market 30, 11, 21), and its two tokens. */
async function readmeGame(): Promise<{ id: string; seat0: string; seat1: string }> {
  const created = await client.createGame(docs.readmeCreate);
  const [seat0, seat1] = created.tokens;
  assert.ok(seat0 && seat1);
  assert.deepEqual(created.game.market, [30, 11, 21]);
  return { id: created.game.id, seat0, seat1 };
}

test("the README's turn and the guide's whole turn, as the docs show them", async () => {
  const { id, seat0, seat1 } = await readmeGame();
  const legal = await client.legalMoves(id, 11);
  assert.deepEqual(legal.moves[0], docs.readmeLegalMoves.moves[0]);
  assert.equal(legal.moves.length, 224);
  assert.equal((await client.move(id, seat0, docs.readmeBuy, { ifMatch: 1, idempotencyKey: "turn-1" })).version, 2);
  assertProblem(await client.move(id, seat0, docs.readmeAdvance).catch((e: unknown) => e), docs.readmeNotYourTurn);
  assert.deepEqual(await client.moves(id), docs.readmeHistory.moves);
  const stale = await client.move(id, seat1, docs.readmeAdvance, { ifMatch: 1 }).catch((e: unknown) => e);
  assertProblem(stale, docs.guideVersionMismatch);
  await client.move(id, seat1, docs.guideByCells);
  const history = await client.moves(id, 1);
  assert.deepEqual(history[0]?.action === "buy" && history[0].placement, {
    row: 0,
    col: 0,
    rotation: 0,
    flipped: false,
    cells: [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 2]],
  });
});

test("the guide's hint and resignation, after three advances", async () => {
  const { id, seat0, seat1 } = await readmeGame();
  for (const token of [seat0, seat1, seat0]) await client.move(id, token, { action: "advance" });
  assert.deepEqual(await client.hint(id), docs.guideHint);
  const finished = await client.resign(id, seat1, { idempotencyKey: "bye" });
  assert.deepEqual(finished.result, docs.guideResigned);
  assert.deepEqual((await client.moves(id, 3))[0], docs.guideResignRecord);
});

test("placements and creation with every optional field null are accepted", async () => {
  for (const move of [docs.nullsByOrientation, docs.nullsByCells, docs.pickedAsItIs]) {
    const { id, seat0 } = await readmeGame();
    assert.equal((await client.move(id, seat0, move)).version, 2);
  }
  const created = await client.createGame(docs.nullsCreate);
  assert.equal(created.game.seed, 7);
});

test("both forms naming different cells: a wrong move, 422 naming the cells the orientation covers, as the guide shows", async () => {
  const { id, seat0 } = await readmeGame();
  const refused = await client.move(id, seat0, { action: "buy", patch_id: 11, placement: docs.bothForms }).catch((e: unknown) => e);
  assert.ok(refused instanceof ProblemError);
  assert.equal(refused.status, 422);
  assert.equal(refused.problem?.code, "does_not_fit");
  // Patch 11 turned 90 degrees from row 1, col 0 covers these (the guide's example).
  assert.ok(refused.problem?.detail.includes("[[1, 1], [2, 0], [2, 1], [2, 2]]"), refused.problem?.detail);
});
