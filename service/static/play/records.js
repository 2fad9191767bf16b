// Game records (docs/records.md) on /play: a game's Export link downloads
// GET /games/{id}/record; the Import form beside the new-game form sends a
// record (a file, or pasted text) to POST /games/import and opens the game
// it made, or shows what is wrong with it, line by line.

import { ApiError, retryAfterOf } from "./api.js";
import { language, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** Point the Export link at `game`'s record, named for the download. */
export function showExport(game) {
  $("export").href = `/games/${encodeURIComponent(game.id)}/record`;
  $("export").download = `patchwork-${game.id}.pwr`;
}

async function importRecord(text) {
  const response = await fetch("/games/import", {
    method: "POST",
    headers: { "Content-Type": "text/x-patchwork-record", "Accept-Language": language() },
    body: text,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body, retryAfterOf(response));
  return body;
}

function showProblem(error) {
  $("import-problem").hidden = false;
  $("import-detail").textContent = error.message;
  const errors = error.problem?.errors ?? [];
  $("import-errors").replaceChildren(...errors.map((each) => Object.assign(document.createElement("li"), {
    textContent: "line" in each
      ? t("Line {line}, at “{token}”: {message}", { line: each.line, token: each.token, message: each.message })
      : each.message,
  })));
}

/** The Import form: on 201 the imported game is opened (as a spectator: its seats have no tokens). */
export function wireImport(showMessage) {
  $("import").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("import-problem").hidden = true;
    const file = $("import-file").files[0];
    const text = file ? await file.text() : $("import-text").value;
    try {
      const game = await importRecord(text);
      location.hash = `game=${encodeURIComponent(game.id)}`;
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) showProblem(error);
      else showMessage(error);
    }
  });
}
