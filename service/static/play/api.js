// The service's public API, as any frontend would call it. Same origin as the
// page, so relative URLs; reads are plain GETs, moves send no If-Match (see
// docs/api-guide.md, "Browsers and CORS"). Every request names the page's
// language, so the service's problems come back in it.

import { language } from "./i18n.js";

import { noteServerDate } from "./clocks.js";

/**
 * An answer that was not a success: `problem` is the service's problem+json body,
 * `retryAfter` its Retry-After in seconds (a 429's or 503's), null when it has none.
 */
export class ApiError extends Error {
  constructor(status, problem, retryAfter = null) {
    super(problem?.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After in seconds (the service sends it as a number), null when absent. */
export function retryAfterOf(response) {
  const seconds = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
  return Number.isFinite(seconds) ? seconds : null;
}

async function answer(response) {
  noteServerDate(response);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body, retryAfterOf(response));
  return body;
}

function read(path) {
  // cache: "no-cache" lets the browser revalidate with the ETag it kept by itself.
  return fetch(path, { cache: "no-cache", headers: { "Accept-Language": language() } }).then(answer);
}

function send(path, token, body) {
  const headers = { "Content-Type": "application/json", "Idempotency-Key": newKey(), "Accept-Language": language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(path, { method: "POST", headers, body: JSON.stringify(body) }).then(answer);
}

// 128 random bits in hex: crypto.randomUUID exists only on https pages, this everywhere.
function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const gamePath = (gameId) => `/games/${encodeURIComponent(gameId)}`;

export const api = {
  /** The 33 regular patches: {id, cost, time, income, shape, cells}. */
  patches: () => read("/patches").then((body) => body.patches),
  /** The computer players on offer, weakest first. */
  bots: () => read("/bots").then((body) => body.bots),
  /** {game, tokens}: `players` as POST /games takes them, and a `clock` (null: none). */
  createGame: (players, clock = null) => send("/games", null, clock ? { players, clock } : { players }),
  game: (gameId) => read(gamePath(gameId)),
  /** The seat a token plays: GET /seat with the token. */
  seatOf: (gameId, token) =>
    fetch(`${gamePath(gameId)}/seat`, { headers: { Authorization: `Bearer ${token}`, "Accept-Language": language() } })
      .then(answer).then((body) => body.seat),
  /** {seat, game}: the token's seat named `name` (the guest of an invite link choosing its own). */
  nameSeat: (gameId, token, name) => send(`${gamePath(gameId)}/seat`, token, { name }),
  /** {version, turn, phase, moves}: the seat in turn's moves, narrowed to one patch when given. */
  legalMoves: (gameId, patchId = null) =>
    read(`${gamePath(gameId)}/legal-moves${patchId === null ? "" : `?patch_id=${patchId}`}`),
  /** The Game after `move` (a request body: advance, buy or place_leather). */
  move: (gameId, token, move) => send(`${gamePath(gameId)}/moves`, token, move),
  resign: (gameId, token) => send(`${gamePath(gameId)}/resign`, token, {}),
  /** The game's history: [{number, seat, action, patch_id?, placement?, outcome}, ...], oldest first. */
  history: (gameId) => read(`${gamePath(gameId)}/moves`).then((body) => body.moves),
  /** The game as it was at `version` (1: as created): the position before move `version`. */
  gameAt: (gameId, version) => read(`${gamePath(gameId)}?version=${version}`),
  /** Ask for a finished game's analysis (once per game; a per-client limit, 429 past it). */
  requestAnalysis: (gameId) =>
    fetch(`${gamePath(gameId)}/analysis`, { method: "POST", headers: { "Accept-Language": language() } }).then(answer),
  /**
   * The analysis: {analysis} once computed, {pending: true, retryAfter} while it is
   * (202); an ApiError 404 analysis_not_requested when nobody asked for it yet.
   */
  analysis: (gameId) =>
    fetch(`${gamePath(gameId)}/analysis`, { cache: "no-cache", headers: { "Accept-Language": language() } })
      .then(async (response) => (response.status === 202
        ? { pending: true, retryAfter: retryAfterOf(response) }
        : { analysis: await answer(response) })),
  /** The analysis chart (SVG text), labelled in the page's language. */
  analysisChart: (gameId) =>
    fetch(`${gamePath(gameId)}/analysis.svg`, { cache: "no-cache", headers: { "Accept-Language": language() } })
      .then(async (response) => {
        if (!response.ok) return answer(response);
        return response.text();
      }),
  eventsUrl: (gameId, lastEventId) =>
    `${gamePath(gameId)}/events${lastEventId === null ? "" : `?last_event_id=${encodeURIComponent(lastEventId)}`}`,
};
