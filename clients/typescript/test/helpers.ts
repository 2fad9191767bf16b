// What the tests against the live service share: players following their own
// streams, and the check of a refusal.
import assert from "node:assert/strict";

import { ProblemError, type PatchworkClient, type PlayerEvent } from "../src/index.js";

/** The error must be the service's refusal with this status and code (true, for `assert.ok` of a `.catch`). */
export function assertProblem(error: unknown, status: number, code: string): true {
  assert.ok(error instanceof ProblemError, String(error));
  assert.equal(error.status, status);
  assert.equal(error.problem?.code, code);
  return true;
}

export interface Someone {
  id: string;
  token: string;
  /** The player's stream from its start; `next(type)` waits for the next event of that type. */
  next: <T extends PlayerEvent["type"]>(type: T) => Promise<Extract<PlayerEvent, { type: T }>>;
  stop: () => void;
}

/** A new player, following its own stream from now on. */
export async function someone(client: PatchworkClient, name: string): Promise<Someone> {
  const { player, token } = await client.createPlayer(name);
  const abort = new AbortController();
  // From the stream's first event ("0-0"): none is missed however soon it comes.
  const events = client.followPlayer(token, { after: "0-0", signal: abort.signal });
  const next = async <T extends PlayerEvent["type"]>(type: T) => {
    for (;;) {
      const { value, done } = await events.next();
      if (done) throw new Error(`${name}'s stream ended before a ${type}`);
      if (value.type === type) return value as Extract<PlayerEvent, { type: T }>;
    }
  };
  return { id: player.id, token, next, stop: () => abort.abort() };
}
