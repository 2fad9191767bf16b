// The views of /play beside a game, the setup form and the lobby, each named
// by the URL's fragment: #player=<id> (a profile, to challenge or block),
// #challenge=<id> (a challenge by link, to accept) and #watch (the games
// being played).

import { showOpenChallenge, showProfile } from "./challenges.js";
import { showActiveGames, showFinishedGames } from "./watching.js";

const $ = (id) => document.getElementById(id);
const VIEWS = ["profile", "challenge-view", "watching"];

/** Hide every view of this module (another one is being shown). */
export function hideViews() {
  for (const view of VIEWS) $(view).hidden = true;
}

function showOnly(view) {
  for (const other of ["setup", "guest", "lobby", "game", ...VIEWS]) $(other).hidden = other !== view;
}

/** Show the view `fragment` names, if it names one of this module's: whether it did. */
export async function showView(fragment, showMessage) {
  if (fragment.has("player")) {
    showOnly("profile");
    const playerId = fragment.get("player");
    await Promise.all([showProfile(playerId, showMessage), showFinishedGames(playerId)]);
  } else if (fragment.has("challenge")) {
    showOnly("challenge-view");
    await showOpenChallenge(fragment.get("challenge"), showMessage);
  } else if (fragment.has("watch")) {
    showOnly("watching");
    await showActiveGames();
  } else {
    return false;
  }
  return true;
}
