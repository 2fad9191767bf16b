// SVG drawing: quilts, patch shapes and the time track. Only SVG attributes
// and classes, never a style attribute: the page's Content-Security-Policy
// allows no inline style.

const SVG = "http://www.w3.org/2000/svg";
export const BOARD = 9;
const CELL = 20;

/** An SVG element with attributes; `classes` is a space-separated list. */
export function svg(name, attributes = {}, classes = "") {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (classes) element.setAttribute("class", classes);
  return element;
}

/** A stable colour per patch id (0, leather, is brown). */
export function patchColour(id) {
  if (id === 0) return "#8b5a2b";
  return `hsl(${(id * 137) % 360} 55% 62%)`;
}

/**
 * A 9x9 quilt: `grid` as Game.players[i].quilt (null, 0 for leather, or a patch id).
 * Returns {element, cells}: cells[row][col] is each cell's <rect>, carrying
 * data-row and data-col, for the caller to mark and listen to.
 */
export function drawQuilt(grid) {
  const element = svg("svg", { viewBox: `0 0 ${BOARD * CELL} ${BOARD * CELL}`, role: "img" }, "quilt");
  const cells = [];
  for (let row = 0; row < BOARD; row++) {
    cells.push([]);
    for (let col = 0; col < BOARD; col++) {
      const id = grid[row][col];
      const rect = svg("rect", {
        x: col * CELL, y: row * CELL, width: CELL, height: CELL,
        fill: id === null ? "#f6f1e7" : patchColour(id),
        "data-row": row, "data-col": col,
      }, id === null ? "cell empty" : "cell");
      element.append(rect);
      cells[row].push(rect);
    }
  }
  element.append(svg("path", { d: seams(grid) }, "seams"));
  return { element, cells };
}

/**
 * The edges between cells of different pieces (and between a piece and an
 * empty cell), as one path: drawn dark, so two neighbouring patches of
 * similar colour still read as two.
 */
function seams(grid) {
  const same = (r, c, id) => r >= 0 && r < BOARD && c >= 0 && c < BOARD && grid[r][c] === id;
  let d = "";
  for (let row = 0; row < BOARD; row++) {
    for (let col = 0; col < BOARD; col++) {
      const id = grid[row][col];
      if (id === null) continue;
      const x = col * CELL, y = row * CELL;
      if (!same(row - 1, col, id)) d += `M${x} ${y}h${CELL}`;
      if (!same(row + 1, col, id)) d += `M${x} ${y + CELL}h${CELL}`;
      if (!same(row, col - 1, id)) d += `M${x} ${y}v${CELL}`;
      if (!same(row, col + 1, id)) d += `M${x + CELL} ${y}v${CELL}`;
    }
  }
  return d || "M0 0";
}

/** A small hourglass (a patch's time), drawn so that no emoji font is needed. */
export function hourglassIcon() {
  const element = svg("svg", { viewBox: "0 0 10 14", width: 8, height: 11, role: "img", "aria-label": "⏱" }, "hourglass");
  element.append(svg("path", { d: "M1 1h8M1 13h8M2 1c0 4 6 4 6 6s-6 2-6 6M8 1c0 4-6 4-6 6s6 2 6 6" }));
  return element;
}

/** The cells [[row, col], ...] of a shape given as strings ("X." rows). */
export function shapeCells(shape) {
  const cells = [];
  shape.forEach((line, row) => [...line].forEach((c, col) => { if (c === "X") cells.push([row, col]); }));
  return cells;
}

/** A patch's cells drawn small, moved to the top-left corner. */
export function drawShape(cells, id, unit = 10) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  const rows = Math.max(...cells.map(([r]) => r)) - top + 1;
  const cols = Math.max(...cells.map(([, c]) => c)) - left + 1;
  const element = svg("svg", { viewBox: `0 0 ${cols * unit} ${rows * unit}`,
                               width: cols * unit, height: rows * unit }, "shape");
  for (const [r, c] of cells) {
    element.append(svg("rect", { x: (c - left) * unit, y: (r - top) * unit, width: unit, height: unit,
                                 fill: patchColour(id) }, "shape-cell"));
  }
  return element;
}

/**
 * The time track: spaces 0..track_length in one row, income spaces marked
 * with a button, leather patches still on the track, both players' tokens.
 */
export function drawTrack(game) {
  const spaces = game.track_length + 1;
  const size = 16;
  const element = svg("svg", { viewBox: `0 0 ${spaces * size} ${size * 3}`, role: "img" }, "track");
  for (let space = 0; space < spaces; space++) {
    const x = space * size;
    element.append(svg("rect", { x, y: size, width: size, height: size }, "space"));
    if (game.income_spaces.includes(space)) {
      element.append(svg("circle", { cx: x + size / 2, cy: size * 1.5, r: size / 4 }, "income-space"));
    }
    if (game.leather_spaces.includes(space)) {
      element.append(svg("rect", { x: x + size / 4, y: size * 1.25, width: size / 2, height: size / 2,
                                   fill: patchColour(0) }, "leather-space"));
    }
  }
  game.players.forEach((player, seat) => {
    const cx = player.position * size + size / 2;
    const cy = seat === 0 ? size / 2 : size * 2.5;
    element.append(svg("circle", { cx, cy, r: size / 2.5 }, `token seat-${seat}`));
  });
  return element;
}

/**
 * Cells [[row, col], ...] drawn over a quilt of drawQuilt (its `element`), each
 * a square of `classes`: the analysis shows a move played and the best one so,
 * over the position they were chosen in.
 */
export function drawCellsOver(quilt, cells, classes, id = null) {
  const group = svg("g", id === null ? {} : { "data-patch-id": id }, classes);
  for (const [row, col] of cells) {
    group.append(svg("rect", { x: col * CELL + 1.5, y: row * CELL + 1.5, width: CELL - 3, height: CELL - 3,
                               "data-row": row, "data-col": col }));
  }
  quilt.append(group);
  return group;
}
