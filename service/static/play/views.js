// The views of /play beside a game, the setup form and the lobby, each named
// by the URL's fragment: #player=<id> (a profile, to challenge or block),
// #challenge=<id> (a challenge by link, to accept) and #watch (the games
// being played), #tournaments (the tournaments, and the organiser's form) and
// #tournament=<id> (one tournament).

import { showOpenChallenge, showProfile } from "./challenges.js";
import { leaveTournament, showTournament, showTournaments } from "./tournaments.js";
import { showActiveGames, showFinishedGames } from "./watching.js";

const $ = (id) => document.getElementById(id);
const VIEWS = ["profile", "challenge-view", "watching", "tournaments", "tournament-view"];

/** Hide every view of this module (another one is being shown). */
export function hideViews() {
  for (const view of VIEWS) $(view).hidden = true;
  leaveTournament();
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
  } else if (fragment.has("tournaments")) {
    showOnly("tournaments");
    await showTournaments();
  } else if (fragment.has("tournament")) {
    showOnly("tournament-view");
    await showTournament(fragment.get("tournament"), showMessage);
  } else {
    return false;
  }
  return true;
}

/** The language changed: a view drawn from the service's answers is drawn again in it (the fixed texts are translated already). */
export async function translateView(showMessage) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!$("tournaments").hidden) await showTournaments();
  else if (!$("tournament-view").hidden) await showTournament(fragment.get("tournament"), showMessage);
}
