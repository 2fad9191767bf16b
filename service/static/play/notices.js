// Short notices at the top of /play for what the player's stream tells
// (a challenge came, one was declined, a game started), each with a link to
// act on it. They go away by themselves after a minute.

import { t } from "./i18n.js";

const SHOWN_MS = 60_000;
const MOST = 5;

/** Show `text` (or parts: texts and nodes), with a link to `href` labelled `linkText` when given. */
export function notify(text, href = null, linkText = null) {
  const list = document.getElementById("notices");
  const item = document.createElement("li");
  item.append(...[text].flat());
  if (href !== null) {
    const link = Object.assign(document.createElement("a"), { href, textContent: linkText ?? t("Open") });
    item.append(" ", link);
  }
  list.prepend(item);
  while (list.children.length > MOST) list.lastElementChild.remove();
  setTimeout(() => item.remove(), SHOWN_MS);
}
