// Watching (docs/api-guide.md, "Watching"): the games being played, newest
// first, each one click from watching it; a player's finished games on their
// profile; and on a game, how many are watching it.

import { describeClock } from "./clocks.js";
import { t, withNodes } from "./i18n.js";
import { named } from "./names.js";
import { playerApi } from "./player-api.js";

const $ = (id) => document.getElementById(id);

const who = (player) => (player.rating === null || player.rating === undefined
  ? player.name : `${player.name} (${player.rating})`);

/** One listed game: a link that opens it for watching (no token: the page only watches). */
function gameItem(entry) {
  const item = document.createElement("li");
  item.dataset.game = entry.id;
  const [first, second] = entry.players;
  const link = Object.assign(document.createElement("a"), { href: `#game=${encodeURIComponent(entry.id)}` });
  link.append(...withNodes(t("{first} v {second}"), { first: named(first, who(first)), second: named(second, who(second)) }));
  const details = [describeClock(entry.clock), entry.rated ? t("rated") : t("casual")];
  if (entry.result) details.push(t("{first} to {second}", { first: entry.result.scores[0], second: entry.result.scores[1] }));
  item.append(link, ` · ${details.join(", ")}`);
  return item;
}

/** Fill `list` with a page of games and let `more` fetch the next one. */
async function fillPages(list, more, fetchPage, emptyText) {
  let cursor = null;
  const load = async () => {
    const { games, next } = await fetchPage(cursor);
    list.append(...games.map(gameItem));
    if (list.children.length === 0) list.append(Object.assign(document.createElement("li"), { textContent: emptyText }));
    cursor = next;
    more.hidden = next === null;
  };
  list.replaceChildren();
  more.onclick = () => load().catch(() => { more.hidden = true; });
  await load();
}

/** #watch: the games being played. */
export function showActiveGames() {
  return fillPages($("active-games"), $("active-more"), (cursor) => playerApi.activeGames(cursor),
    t("No game is being played right now."));
}

/** A player's finished games, on their profile. */
export function showFinishedGames(playerId) {
  return fillPages($("profile-games"), $("profile-more"), (cursor) => playerApi.finishedGames(playerId, cursor),
    t("No finished game yet."));
}

/** A game stream's `watchers` event: `{count}` streams open on the game. */
export function showWatchers({ count }) {
  $("watchers").hidden = false;
  $("watchers").textContent = t("Watching: {count}", { count });
}

/** A game newly opened: no count until its stream tells one. */
export function clearWatchers() {
  $("watchers").hidden = true;
}
