// The page's language: the one the player chose (kept in localStorage), else
// the browser's first that the service speaks, else English. Texts are
// written in English in the code, marked with calls of t (tn for a text with a
// count, whose forms follow the language's plural rule), and looked up in the
// catalogue the service makes from its gettext catalogues
// (play/messages.<language>.json). Elements of index.html marked data-t
// take the translation of their English text.

// The service's languages, as service/languages/spoken.py lists them (tests/languages/test_one_list.py
// holds this copy to that list).
export const LANGUAGES = ["en", "es", "pt", "fr"];
export const LANGUAGE_NAMES = { en: "English", es: "Español", pt: "Português", fr: "Français" };
const KEY = "patchwork-language";

let messages = {};
let current = "en";

/** The language the page starts in. */
export function startingLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}

export const language = () => current;

/** Switch to `next`: fetch its catalogue, remember the choice, translate the page's fixed texts. */
export async function useLanguage(next, remember = false) {
  const catalogue = next === "en" ? {} : (await fetch(`play/messages.${next}.json`).then((r) => r.json())).messages;
  messages = catalogue;
  current = next;
  if (remember) localStorage.setItem(KEY, next);
  document.documentElement.lang = next;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
}

/** `message` (English, with {name} placeholders) in the page's language, its values filled in (a fraction with the language's decimal mark). */
export function t(message, values = {}) {
  return filled(messages[message] || message, values);
}

/**
 * A message with a count, `values[count]`, given as its English singular and plural: the form the page's
 * language uses for that number (the catalogue has its forms by Intl.PluralRules category).
 */
export function tn(singular, plural, count, values = {}) {
  const one = new Intl.PluralRules(current).select(values[count]) === "one";
  const forms = messages[singular];
  return filled(forms ? (one ? forms.one : forms.other) : one ? singular : plural, values);
}

/**
 * A translated `text` with the placeholders t left in it (those it was given no value for) filled with
 * `nodes`, elements such as a name with its badge: the parts to append, in the translation's order.
 */
export function withNodes(text, nodes) {
  return text.split(/(\{\w+\})/)
    .map((part, index) => (index % 2 === 1 && part.slice(1, -1) in nodes ? nodes[part.slice(1, -1)] : part))
    .filter((part) => part !== "");
}

const filled = (text, values) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? shown(values[name]) : whole));

const shown = (value) =>
  typeof value === "number" && !Number.isInteger(value) ? new Intl.NumberFormat(current).format(value) : String(value);

/** A move of a game's history said in the page's language, `who` its mover: every action a history holds has its words. */
export function moveWords({ action, patch_id: patchId }, who) {
  const words = {
    buy: () => t("{name} bought patch {patch}", { name: who, patch: patchId }),
    advance: () => t("{name} advanced", { name: who }),
    place_leather: () => t("{name} placed a leather patch", { name: who }),
    resign: () => t("{name} resigned", { name: who }),
    timeout: () => t("{name} ran out of time", { name: who }),
    abort: () => t("The game was aborted: no first move in time"),
    takeback: () => t("{name} took back their last turn", { name: who }),
  }[action];
  return words ? words() : t("{name} made a move", { name: who });
}
