// The requests of issue 38's features (challenges, blocks, offers, the lists
// of games): as api.js, relative URLs in the page's language, plus the
// player's token (lobby.js keeps it in localStorage) where the request acts
// for the player. A player token goes in the Authorization header only.

import { ApiError, retryAfterOf } from "./api.js";
import { noteServerDate } from "./clocks.js";
import { language } from "./i18n.js";
import { playerToken } from "./lobby.js";

async function answer(response) {
  noteServerDate(response);
  // 204 (a withdrawal, an unblock) has no body.
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body, retryAfterOf(response));
  return body;
}

/** A request with `token` (the player's by default); a POST carries a fresh Idempotency-Key. */
export function request(method, path, { body, token = playerToken() } = {}) {
  const headers = { "Accept-Language": language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST") headers["Idempotency-Key"] = newKey();
  // cache: "no-cache" lets the browser revalidate what it kept (a game's ETag) rather than trust it.
  const init = { method, headers, cache: "no-cache" };
  if (body !== undefined) init.body = JSON.stringify(body);
  return fetch(path, init).then(answer);
}

// 128 random bits in hex (crypto.randomUUID exists only on https pages).
function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const id = encodeURIComponent;
const query = (values) => {
  const entries = Object.entries(values).filter(([, value]) => value !== null && value !== undefined);
  return entries.length === 0 ? "" : `?${new URLSearchParams(entries)}`;
};

export const playerApi = {
  /** The profile of this browser's player. */
  me: () => request("GET", "/players/me"),
  /** A player's public profile. */
  profile: (playerId) => request("GET", `/players/${id(playerId)}`, { token: null }),

  // ---- Challenges ----
  /** `{challenge}`: `to` a player id, or null for an open challenge (a link). */
  challenge: (to, clock, rated, seat) => request("POST", "/challenges", { body: { to, clock, rated, seat } }),
  /** `{challenge}`: anyone may read one. */
  challengeById: (challengeId) => request("GET", `/challenges/${id(challengeId)}`, { token: null }),
  /** The player's pending challenges, incoming and outgoing. */
  myChallenges: () => request("GET", "/players/me/challenges"),
  /** `{game, seat, token}`: as the player, or by a `name` alone (an open, unrated challenge, no player here). */
  acceptChallenge: (challengeId, name = null) => (name === null
    ? request("POST", `/challenges/${id(challengeId)}/accept`, { body: {} })
    : request("POST", `/challenges/${id(challengeId)}/accept`, { body: { name }, token: null })),
  declineChallenge: (challengeId, reason) =>
    request("POST", `/challenges/${id(challengeId)}/decline`, { body: { reason } }),
  withdrawChallenge: (challengeId) => request("DELETE", `/challenges/${id(challengeId)}`),

  // ---- Vacation (correspondence clocks paused from a yearly bank) ----
  startVacation: (days) => request("POST", "/players/me/vacation", { body: { days } }),
  endVacation: () => request("DELETE", "/players/me/vacation"),

  // ---- Webhooks (docs/api-guide.md#webhooks) ----
  /** `{webhooks}`: the player's webhooks, no secrets. */
  webhooks: () => request("GET", "/players/me/webhooks"),
  /** `{webhook, secret}`: the secret shown this once. */
  createWebhook: (url, events) => request("POST", "/players/me/webhooks", { body: { url, events } }),
  deleteWebhook: (webhookId) => request("DELETE", `/players/me/webhooks/${id(webhookId)}`),
  /** `{deliveries}`: the webhook's last attempts, newest first. */
  webhookDeliveries: (webhookId) => request("GET", `/players/me/webhooks/${id(webhookId)}/deliveries`),

  // ---- Blocks ----
  /** `{players}`: the ids of the players this one blocks. */
  blocks: () => request("GET", "/players/me/blocks"),
  block: (playerId) => request("POST", `/players/me/blocks/${id(playerId)}`),
  unblock: (playerId) => request("DELETE", `/players/me/blocks/${id(playerId)}`),

  /** The game as it is now. */
  game: (gameId) => request("GET", `/games/${id(gameId)}`, { token: null }),

  // ---- Offers: a rematch, a takeback (`token`: the seat's or the player's) ----
  /** `{offer}` (202) when asked, the next game `{game, seat, token}` (201) when it accepts the other side's offer. */
  rematch: (gameId, token) => request("POST", `/games/${id(gameId)}/rematch`, { body: {}, token }),
  /** Declines the other side's offer, or withdraws ours. */
  dropRematch: (gameId, token) => request("DELETE", `/games/${id(gameId)}/rematch`, { token }),
  /** `{offer}` when asked, the game after it when it accepts the other side's. */
  takeback: (gameId, token) => request("POST", `/games/${id(gameId)}/takeback`, { body: {}, token }),
  dropTakeback: (gameId, token) => request("DELETE", `/games/${id(gameId)}/takeback`, { token }),

  // ---- Watching ----
  /** `{games, next}`: games being played, newest first; `cursor` is the previous page's `next`. */
  activeGames: (cursor = null) => request("GET", `/games${query({ status: "active", cursor })}`, { token: null }),
  /** `{games, next}`: a player's finished games, newest first. */
  finishedGames: (playerId, cursor = null) =>
    request("GET", `/games${query({ status: "finished", player: playerId, cursor })}`, { token: null }),

  // ---- Tournaments ----
  /** `{tournament}`: made by this player, its organiser (`body` as POST /tournaments takes it). */
  createTournament: (body) => request("POST", "/tournaments", { body }),
  /** `{tournament}`: anyone may read one. */
  tournament: (tournamentId) => request("GET", `/tournaments/${id(tournamentId)}`, { token: null }),
  /** `{tournaments, next}`: a page of the tournaments of `status` (upcoming, running, finished). */
  tournaments: (status, cursor = null) => request("GET", `/tournaments${query({ status, cursor })}`, { token: null }),
  /** `{tournament}` after the player's `action`: join, withdraw, or the organiser's start and cancel. */
  tournamentAction: (tournamentId, action) => request("POST", `/tournaments/${id(tournamentId)}/${action}`, { body: {} }),
  /** The tournament's event stream, resumed after `lastId` when given (EventSource sends no header). */
  tournamentEventsUrl: (tournamentId, lastId = null) =>
    `/tournaments/${id(tournamentId)}/events${query({ last_event_id: lastId })}`,

  /** `{ticket}`: a one-use ticket for the player's stream (EventSource sends no header). */
  streamTicket: () => request("POST", "/players/me/stream-tickets"),
};
