// A typed wrapper over fetch for the Patchwork service.
//
// Every request it sends is safe to send again, so it retries what the
// service asks to be retried: 429 and 503 after their Retry-After, 409
// idempotency_key_in_use (the first try of a move still running), and a
// network error. Moves and resignations carry an Idempotency-Key, the same
// one on every retry, so a move is applied once however often it is sent.
// A repeated POST /games makes at most a game nobody uses.
import type {
  Bot,
  CreateGameRequest,
  Game,
  GameCreated,
  Hint,
  LegalMoves,
  MoveRecord,
  MoveRequest,
  NameSeatRequest,
  Seat,
} from "./types.js";
import { ProblemError, problemOf, retryAfterMs, sleep } from "./answers.js";
import { follow, type FollowOptions, type GameEvent } from "./follow.js";

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const RETRIED_STATUSES = new Set([429, 503]);
const FIRST_BACKOFF_MS = 500;

export interface ClientOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Retries of one request after 429, 503, a move still in flight or a network error (default 5). */
  maxRetries?: number;
  /** The longest wait before a retry, whatever Retry-After says (default 30 000 ms). */
  maxRetryDelayMs?: number;
}

export interface MoveOptions {
  /** Sent as `If-Match: "<version>"`: the move is refused (412) if the game has moved on. */
  ifMatch?: number;
  /** The move's Idempotency-Key; by default a fresh random one, kept across this call's retries. */
  idempotencyKey?: string;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export class PatchworkClient {
  readonly baseUrl: string;
  /** The fetch every request goes through. */
  readonly fetch: typeof fetch;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = options.maxRetries ?? 5;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  /** GET /bots: the levels on offer, weakest first. */
  async bots(): Promise<Bot[]> {
    return (await this.send<{ bots: Bot[] }>("GET", "/bots")).body.bots;
  }

  /** POST /games: every field optional; no body at all when none is given. */
  async createGame(request?: CreateGameRequest): Promise<GameCreated> {
    return (await this.send<GameCreated>("POST", "/games", { body: request })).body;
  }

  /** GET /games/{id}, or the game as it was at `version`. */
  async game(gameId: string, version?: number): Promise<Game> {
    const query = version === undefined ? "" : `?version=${version}`;
    return (await this.send<Game>("GET", `/games/${encodeURIComponent(gameId)}${query}`)).body;
  }

  /** GET /games/{id}/moves: the history, oldest first; only the moves numbered above `since` if given. */
  async moves(gameId: string, since?: number): Promise<MoveRecord[]> {
    const query = since === undefined ? "" : `?since=${since}`;
    const path = `/games/${encodeURIComponent(gameId)}/moves${query}`;
    return (await this.send<{ moves: MoveRecord[] }>("GET", path)).body.moves;
  }

  /** GET /games/{id}/legal-moves, of one patch if `patchId` is given. */
  async legalMoves(gameId: string, patchId?: number): Promise<LegalMoves> {
    const query = patchId === undefined ? "" : `?patch_id=${patchId}`;
    return (await this.send<LegalMoves>("GET", `/games/${encodeURIComponent(gameId)}/legal-moves${query}`)).body;
  }

  /** GET /games/{id}/hint: the move a hint level (`greedy` by default) would play now. */
  async hint(gameId: string, level?: string): Promise<Hint> {
    const query = level === undefined ? "" : `?level=${encodeURIComponent(level)}`;
    return (await this.send<Hint>("GET", `/games/${encodeURIComponent(gameId)}/hint${query}`)).body;
  }

  /** GET /games/{id}/seat: the seat a token plays. */
  async seat(gameId: string, token: string): Promise<Seat> {
    const path = `/games/${encodeURIComponent(gameId)}/seat`;
    return (await this.send<{ seat: Seat }>("GET", path, { token })).body.seat;
  }

  /**
   * POST /games/{id}/seat with the seat's token: the seat names itself (the guest of an
   * invite link choosing its own name). Sending the same name again changes nothing.
   */
  async nameSeat(gameId: string, token: string, name: NameSeatRequest["name"]): Promise<{ seat: Seat; game: Game }> {
    const path = `/games/${encodeURIComponent(gameId)}/seat`;
    const body: NameSeatRequest = { name };
    return (await this.send<{ seat: Seat; game: Game }>("POST", path, { body, token })).body;
  }

  /** Every event of the game, in version order, each once, across reconnects: see follow.ts. */
  follow(gameId: string, options: FollowOptions = {}): AsyncGenerator<GameEvent, void, undefined> {
    return follow(this, gameId, options);
  }

  /**
   * POST /games/{id}/moves with the seat's token: the game after the move.
   *
   * The answer may come after the event stream has shown this move and even
   * the opponent's reply: a game from here is older than what `follow` has
   * shown when its version is lower (see docs/api-guide.md, "Your move on the
   * stream before its answer").
   */
  async move(gameId: string, token: string, move: MoveRequest, options: MoveOptions = {}): Promise<Game> {
    const path = `/games/${encodeURIComponent(gameId)}/moves`;
    return (await this.sendKeyed<Game>(path, token, move, options)).body;
  }

  /** POST /games/{id}/resign with the seat's token: the finished game. */
  async resign(gameId: string, token: string, options: MoveOptions = {}): Promise<Game> {
    const path = `/games/${encodeURIComponent(gameId)}/resign`;
    return (await this.sendKeyed<Game>(path, token, {}, options)).body;
  }

  private sendKeyed<T>(path: string, token: string, body: object, options: MoveOptions): Promise<Answer<T>> {
    const headers: Record<string, string> = { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() };
    if (options.ifMatch !== undefined) headers["If-Match"] = `"${options.ifMatch}"`;
    return this.send<T>("POST", path, { body, token, headers });
  }

  /** One request, retried as the header comment says; an error answer is thrown as a ProblemError. */
  async send<T>(
    method: "GET" | "POST",
    path: string,
    options: { body?: object | undefined; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(this.maxRetryDelayMs, FIRST_BACKOFF_MS * 2 ** attempt);
      let response: Response;
      try {
        const init: RequestInit = { method, headers };
        if (body !== undefined) init.body = body;
        if (options.signal !== undefined) init.signal = options.signal;
        response = await this.fetch(this.baseUrl + path, init);
      } catch (error) {
        // A network error (fetch's TypeError): the request may or may not
        // have arrived; sending it again is safe (see the header comment).
        if (!(error instanceof TypeError) || attempt >= this.maxRetries) throw error;
        await sleep(backoff, options.signal);
        continue;
      }
      if (response.ok) {
        const text = response.status === 204 ? "" : await response.text();
        return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
      }
      const error = await problemOf(response);
      if (attempt < this.maxRetries && isRetried(error)) {
        const asked = retryAfterMs(response.headers);
        await sleep(Math.min(this.maxRetryDelayMs, asked ?? backoff), options.signal);
        continue;
      }
      throw error;
    }
  }
}

function isRetried(error: ProblemError): boolean {
  return RETRIED_STATUSES.has(error.status) || error.problem?.code === "idempotency_key_in_use";
}
