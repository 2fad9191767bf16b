// What a screen reader is told, in the page's language: one polite live
// region (index.html's #announcer, shown to nobody else) for moves, whose turn
// it is, a clock running low and the result. Sparingly: the status line is not
// live, so each thing is said once, when it happens.

const region = () => document.getElementById("announcer");
let timer = null;

/** Say `text` politely. The region is emptied first, so the same words said twice are read twice. */
export function announce(text) {
  const box = region();
  clearTimeout(timer);
  box.textContent = "";
  timer = setTimeout(() => { box.textContent = text; }, 50);
}
