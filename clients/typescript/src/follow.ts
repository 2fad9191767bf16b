// follow(gameId): every event of a game, in version order, each once, across
// dropped connections, refusals and the race between a move's POST and the
// stream (docs/api-guide.md, "Your move on the stream before its answer").
import { sleep } from "./answers.js";
import { Backoff } from "./backoff.js";
import type { PatchworkClient } from "./http.js";
import { readEventStream } from "./sse.js";
import type { Game, GameResult, MoveRecord, OfferEvent, Watchers } from "./types.js";

export type GameEvent =
  /** The game as it is: the first event when following from the start. */
  | { type: "game"; version: number; game: Game }
  /** One accepted move and the game after it (`version` = `game.version`). */
  | { type: "move"; version: number; move: MoveRecord; game: Game }
  /** The game is over: the last event. */
  | { type: "end"; version: number; result: GameResult };

/**
 * What the stream says besides the game's versions (with `notices: true`): an
 * offer made or answered (a takeback given is a `move`), and how many streams
 * are open on the game. Neither has a version of its own: `version` is the
 * last one shown. After a reconnect an offer may be told again.
 */
export type GameNotice =
  | { type: "offer"; version: number; offer: OfferEvent }
  | { type: "watchers"; version: number; count: number };

export interface FollowOptions {
  /** Yield the `offer` and `watchers` events too (GameNotice). */
  notices?: boolean;
  /** Resume after this version (the events after it only, no snapshot first). */
  after?: number;
  /** Stops following: the iteration ends (the abort's reason is thrown). */
  signal?: AbortSignal;
  /** The longest wait between attempts to reconnect (default 30 000 ms). */
  maxReconnectDelayMs?: number;
}

/**
 * The game's events: a snapshot (unless `after` is given), then each move,
 * then `end`, and the iteration finishes. A stream that drops or is refused
 * (503, 429) is opened again after the wait the service asks for, with
 * `Last-Event-ID` naming the last version yielded, so nothing is missed;
 * anything at or below that version is not yielded again. If the service
 * answers a resume with a snapshot (it no longer has the events since), the
 * moves in between are read from the history and yielded first. A game that
 * does not exist throws a ProblemError (404).
 */
export async function* follow(
  client: PatchworkClient,
  gameId: string,
  options: FollowOptions = {},
): AsyncGenerator<GameEvent | GameNotice, void, undefined> {
  const backoff = new Backoff(options.maxReconnectDelayMs ?? 30_000);
  const path = `/games/${encodeURIComponent(gameId)}/events`;
  let last: number | null = options.after ?? null;
  let latest: Game | null = null;

  for (;;) {
    let response: Response | null = null;
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (last !== null) headers["Last-Event-ID"] = String(last);
    const init: RequestInit = { headers, cache: "no-store" };
    if (options.signal !== undefined) init.signal = options.signal;
    try {
      response = await client.fetch(client.baseUrl + path, init);
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof TypeError)) throw error;
    }
    let wait: number;
    if (response !== null && response.status === 204) {
      // We have the whole finished game: only `end` can be missing.
      if (latest?.result) yield { type: "end", version: latest.version, result: latest.result };
      else if (last !== null) {
        const game = await client.game(gameId);
        if (game.result) yield { type: "end", version: game.version, result: game.result };
      }
      return;
    }
    if (response !== null && response.status === 200 && response.body !== null) {
      const stream = readEventStream(response.body, last === null ? "" : String(last));
      let delivered = false;
      try {
        for await (const message of stream.messages) {
          backoff.delivered();
          delivered = true;
          if (message.event === "game") {
            const game = JSON.parse(message.data) as Game;
            if (last === null) {
              yield { type: "game", version: game.version, game };
            } else if (game.version > last) {
              // A snapshot where the events since `last` were asked for: the
              // service no longer has them. The history has every move.
              for await (const event of movesBetween(client, gameId, last, game.version)) yield event;
            }
            if (last === null || game.version > last) {
              last = game.version;
              latest = game;
            }
          } else if (message.event === "move") {
            const { move, game } = JSON.parse(message.data) as { move: MoveRecord; game: Game };
            if (last !== null && game.version <= last) continue; // seen before a reconnect
            if (last !== null && game.version > last + 1) {
              for await (const event of movesBetween(client, gameId, last, game.version - 1)) yield event;
            }
            yield { type: "move", version: game.version, move, game };
            last = game.version;
            latest = game;
          } else if (options.notices && message.event === "offer") {
            yield { type: "offer", version: last ?? 0, offer: JSON.parse(message.data) as OfferEvent };
          } else if (options.notices && message.event === "watchers") {
            yield { type: "watchers", version: last ?? 0, count: (JSON.parse(message.data) as Watchers).count };
          } else if (message.event === "end") {
            const result = JSON.parse(message.data) as GameResult;
            yield { type: "end", version: last ?? 0, result };
            return;
          }
        }
      } catch (error) {
        // The body broke off (a reset, a proxy's timeout): reconnect below.
        if (options.signal?.aborted || !(error instanceof TypeError)) throw error;
      }
      // A stream that closed before any event (the store failing as it
      // opened) counts as a failed attempt: the waits grow.
      wait = backoff.afterStream(stream.retryMs(), delivered);
    } else {
      wait = await backoff.afterFailure(response);
    }
    await sleep(wait, options.signal);
  }
}

/** The moves that made versions after..upTo, from the history, each with the game after it. */
async function* movesBetween(
  client: PatchworkClient,
  gameId: string,
  after: number,
  upTo: number,
): AsyncGenerator<GameEvent> {
  // Move number n made version n + 1.
  const moves = await client.moves(gameId, after - 1);
  for (const move of moves) {
    const version = move.number + 1;
    if (version > upTo) break;
    yield { type: "move", version, move, game: await client.game(gameId, version) };
  }
}
