// Both quilts in words, on demand (the "Describe the quilts" button): for a
// player who cannot see the drawings, each seat's counts, then its quilt row by
// row, which columns are covered and by what, and which are empty.

import { BOARD } from "./draw.js";
import { t, tn } from "./i18n.js";

/** Runs of equal values in `line` as [value, first column, last column] (columns from 1). */
function runs(line) {
  const found = [];
  line.forEach((value, index) => {
    const last = found.at(-1);
    if (last && last[0] === value) last[2] = index + 1;
    else found.push([value, index + 1, index + 1]);
  });
  return found;
}

const span = (first, last) => (first === last ? String(first) : `${first}–${last}`);

/** A row of a quilt in words: "columns 1–3: patch 12; columns 4–9: empty". */
function rowWords(line) {
  return runs(line).map(([id, first, last]) => {
    const what = id === null ? t("empty") : id === 0 ? t("leather patch") : t("patch {patch}", { patch: id });
    return t("columns {columns}: {what}", { columns: span(first, last), what });
  }).join("; ");
}

/** A seat's counts in words: "5 buttons · income 0 · space 0 · 81 empty · score -157". */
export function seatCounts(player) {
  const numbers = {
    buttons: player.buttons, income: player.income, space: player.position, empty: player.empty_cells, score: player.score,
  };
  // Each count in a message of its own, so each takes its own plural.
  return [
    tn("{buttons} button", "{buttons} buttons", "buttons", numbers),
    t("income {income} · space {space}", numbers),
    tn("{empty} empty", "{empty} empty", "empty", numbers),
    t("score {score}", numbers),
  ].join(" · ");
}

/** One section per seat: a heading (the name, its seat's mark) and a list of its counts and rows. */
export function describeQuilts(game, mySeat) {
  return game.players.map((player, seat) => {
    const part = document.createElement("section");
    const heading = document.createElement("h3");
    const mark = seat === 0 ? t("disc") : t("square");
    heading.textContent = t("{name}'s quilt ({mark} on the time track)", { name: player.name, mark })
      + (seat === mySeat ? " " + t("(you)") : "");
    const counts = document.createElement("p");
    counts.textContent = seatCounts(player);
    const rows = document.createElement("ul");
    for (let row = 0; row < BOARD; row++) {
      const item = document.createElement("li");
      item.textContent = t("Row {row}: {cells}", { row: row + 1, cells: rowWords(player.quilt[row]) });
      rows.append(item);
    }
    part.append(heading, counts, rows);
    return part;
  });
}
