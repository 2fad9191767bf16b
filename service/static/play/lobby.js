// The lobby of /play: a player identity, open games to join, quick pairing
// with a chosen clock, "my games" and the player's rating. Only the public API.
//
// The player token is kept in this browser's localStorage (the page says so):
// it is this browser's identity. It goes only in Authorization headers, never
// in a URL; a game opened as the player says "as=player" in the fragment.

import { ApiError } from "./api.js";
import { clockRequest, describeClock } from "./clocks.js";
import { language, t, tn, withNodes } from "./i18n.js";
import { listChallenges } from "./challenges.js";
import { named } from "./names.js";

const KEY = "patchwork.playerToken";
const $ = (id) => document.getElementById(id);

export const playerToken = () => localStorage.getItem(KEY);

async function call(method, path, body = undefined) {
  // The service's refusals in the page's language, as api.js asks for them.
  const headers = { Authorization: `Bearer ${playerToken()}`, "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

const openAsPlayer = (gameId) => { location.hash = `game=${encodeURIComponent(gameId)}&as=player`; };

export async function showLobby(showMessage) {
  $("setup").hidden = true;
  $("game").hidden = true;
  $("lobby").hidden = false;
  if (!playerToken()) {
    $("who").textContent = "";
    $("become").hidden = false;
    $("lobby-play").hidden = true;
    return;
  }
  $("become").hidden = true;
  $("lobby-play").hidden = false;
  try {
    const me = await call("GET", "/players/me");
    $("who").textContent = tn("You play as {name}, rated {rating} ({games} rated game).",
      "You play as {name}, rated {rating} ({games} rated games).", "games", me);
    await Promise.all([listOpenGames(showMessage), listMyGames(), listChallenges(showMessage)]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) localStorage.removeItem(KEY);
    showMessage(error);
  }
}

async function listOpenGames(showMessage) {
  const { games } = await (await fetch("/games?status=open", { cache: "no-cache" })).json();
  const list = $("open-games");
  list.replaceChildren();
  for (const entry of games) {
    const item = document.createElement("li");
    const rating = entry.host.rating === null ? "" : ` (${entry.host.rating})`;
    const clock = describeClock(entry.clock);
    const join = document.createElement("button");
    join.type = "button";
    join.textContent = t("Join");
    join.addEventListener("click", () => call("POST", `/games/${encodeURIComponent(entry.id)}/join`, {})
      .then(() => openAsPlayer(entry.id)).catch(showMessage));
    const kind = entry.rated ? `, ${t("rated")}` : "";
    item.append(`${entry.host.name}${rating}, ${clock}${kind} `, join);
    list.append(item);
  }
  if (games.length === 0) list.append(Object.assign(document.createElement("li"), { textContent: t("No open game: open one.") }));
}

async function listMyGames() {
  const { games } = await call("GET", "/players/me/games?status=active");
  const list = $("my-games");
  list.replaceChildren();
  for (const { game, my_turn: myTurn } of games) {
    const link = Object.assign(document.createElement("a"), { href: `#game=${encodeURIComponent(game.id)}&as=player` });
    const names = { first: named(game.players[0]), second: named(game.players[1]) };
    link.append(...withNodes(myTurn ? t("{first} v {second}: your move") : t("{first} v {second}"), names));
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
}

async function become(event, showMessage) {
  event.preventDefault();
  try {
    const { token } = await call("POST", "/players", { name: $("player-name").value.trim() || t("Player") });
    localStorage.setItem(KEY, token);
    await showLobby(showMessage);
  } catch (error) {
    showMessage(error);
  }
}

async function seek(showMessage) {
  try {
    const clock = clockRequest($("seek-clock").value);
    let { seek } = await call("POST", "/seeks", { clock, rated: $("seek-rated").checked });
    $("seek-status").textContent = t("Looking for an opponent…");
    // The player stream would say it too (game_start); polling the seek is enough here.
    while (seek.status === "waiting") {
      await new Promise((done) => setTimeout(done, 1000));
      ({ seek } = await call("GET", `/seeks/${encodeURIComponent(seek.id)}`));
    }
    const ended = { waiting: t("Seek waiting."), cancelled: t("Seek cancelled."), expired: t("Seek expired.") };
    $("seek-status").textContent = seek.status === "paired" ? "" : ended[seek.status] ?? seek.status;
    if (seek.game) openAsPlayer(seek.game);
  } catch (error) {
    showMessage(error);
  }
}

async function openGame(showMessage) {
  try {
    const clock = clockRequest($("seek-clock").value);
    // A rated lobby game needs a clock, as a rated seek does (every choice here has one).
    const rated = $("seek-rated").checked ? { rated: true } : {};
    const body = { players: [{ name: "me" }, { open: true }], ...(clock ? { clock } : {}), ...rated };
    const { game } = await call("POST", "/games", body);
    openAsPlayer(game.id);
  } catch (error) {
    showMessage(error);
  }
}

export function wireLobby(showMessage) {
  $("become").addEventListener("submit", (event) => become(event, showMessage));
  $("seek").addEventListener("click", () => seek(showMessage));
  $("open-game").addEventListener("click", () => openGame(showMessage));
  $("forget").addEventListener("click", () => { localStorage.removeItem(KEY); showLobby(showMessage); });
}
