// How /play names a player wherever it shows one (a game's seats, its turn
// line and result, challenges, lists of games, a profile). A bot account (an
// outside engine playing through the API: `bot: true` on its profile, its
// seats, its side of a challenge) carries a BOT badge after its name: words,
// not a colour, with a spoken label. A seat the service's own level plays
// (`bot` a level id) keeps the name it was given ("Computer (deep)") and
// the level beside it, as before bot accounts: it is not badged.

import { t } from "./i18n.js";

/** Whether `player` (a seat, a challenge's side, a profile, a listed game's player) is a bot account. */
export const isBotAccount = (player) => player?.bot === true;

/** The badge: "BOT" for the eye, "bot account" for a screen reader (role img: its label, not its text, is read). */
export function botBadge() {
  const badge = document.createElement("span");
  badge.className = "bot-badge";
  badge.setAttribute("role", "img");
  badge.setAttribute("aria-label", t("bot account"));
  badge.title = t("bot account");
  badge.textContent = t("BOT");
  return badge;
}

/** `text` (the player's name, or the name with its rating) and, for a bot account, its badge: a node to append. */
export function named(player, text = player.name) {
  const fragment = document.createDocumentFragment();
  fragment.append(text);
  if (isBotAccount(player)) fragment.append(" ", botBadge());
  return fragment;
}
