/* Yukon card table: talks to the JSON API of yukon.web (docs/web.md). No build step, no dependencies: native ES
modules, one job each (docs/web.md lists them); this one starts the page and wires the header's buttons.

The page knows no rule of the game: the server says which moves are legal, the best place for each
card, why a move is refused, and it never tells the face-down cards (only how many lie face down). */
import { hideBanner, stopCascade } from "./banner.js";
import { ask, fillVariants, openNewDialog, openOptions } from "./dialogs.js";
import { applyFocus, focusLost, keepFocus } from "./focus.js";
import { hint } from "./hints.js";
import { goOffline } from "./offline.js";
import { accept, newGame, redo, restart, sendMove, undo } from "./play.js";
import { analyse } from "./records.js";
import { closeReplay, jumpReplay, onReplayShown, openReplay, stepReplay, toggleLine, wideLabel } from "./replay.js";
import { api, enqueue } from "./server.js";
import { saveSettings, settings } from "./settings.js";
import { openStats } from "./stats.js";
import { say } from "./status.js";
import { $, S, timings } from "./store.js";
import { describeMove, parseMove } from "./words.js";

$("btn-new").addEventListener("click", openNewDialog);
$("btn-restart").addEventListener("click", restart);
$("skip-to-table").addEventListener("click", (e) => { e.preventDefault(); if (S.state) applyFocus(true); });
// (a click, not Enter or Space on the button: a keyboard user goes on from the button)
const thenTable = (fn) => (e) => { const r = fn(); if (e.detail > 0 && r) r.then(() => { if (!document.querySelector("dialog[open]")) keepFocus(); }); };
$("btn-undo").addEventListener("click", thenTable(undo));
$("btn-redo").addEventListener("click", thenTable(redo));
$("btn-hint").addEventListener("click", hint);
$("btn-replay").addEventListener("click", () => (S.replay ? closeReplay() : openReplay()));
$("btn-options").addEventListener("click", openOptions);
$("btn-stats").addEventListener("click", openStats);
$("btn-help").addEventListener("click", () => $("dlg-help").showModal());
$("banner-new").addEventListener("click", () => {
  hideBanner();
  stopCascade();
  newGame({ variant: S.state.variant, options: S.state.rules, winnableOnly: settings.winnableOnly, deal: settings.deal });
});
// Statistics opens over the box, as New (N) does: Esc or Close returns to the box, not past it to the table
$("banner-stats").addEventListener("click", () => { stopCascade(); openStats(); });
$("banner-undo").addEventListener("click", () => { hideBanner(); undo(); });
$("banner-analyse").addEventListener("click", () => { hideBanner(); stopCascade(); analyse(); });
$("banner-replay").addEventListener("click", () => { hideBanner(); stopCascade(); openReplay(); });
$("banner").addEventListener("click", (e) => { if (e.target === $("banner")) hideBanner(); });
$("deal-number").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    const t = e.target.value.trim();
    if (!/^\d+$/.test(t)) { say("A deal number is a whole number, such as 42.", true); return; }
    if (!Number.isSafeInteger(Number(t))) { say(`This page takes deal numbers up to ${Number.MAX_SAFE_INTEGER}.`, true); return; }
    e.target.blur();
    newGame({ variant: S.state.variant, options: S.state.rules, seed: Number(t), numbering: S.state.numbering });
  } else if (e.key === "Escape") {
    e.target.value = S.state.seed ?? "custom";
    e.target.blur();
  }
});
$("deal-number").addEventListener("blur", (e) => { if (S.state) e.target.value = S.state.seed ?? "custom"; });

// Start: resume the last game (the address's, this browser's, the server's latest), or deal one.
export async function start() {
  try {
    S.variants = await api("GET", "/api/variants");
    fillVariants();
  } catch (err) {
    if (err.offline) { goOffline(); return; }
    say(`Cannot start: ${err.message}`, true, true);
    return;
  }
  const resumed = (data) => {
    accept(data);
    if (data.result === null && data.player_moved) say("Welcome back: your game is where you left it.");
  };
  // a game the server no longer knows (another database, deleted) is expected: 204, no console error
  const known = async (gameId) => api("GET", `/api/games/${encodeURIComponent(gameId)}?missing_ok=true`);
  const params = new URLSearchParams(location.search);
  if (params.has("game")) {
    try { const data = await known(params.get("game")); if (data) { resumed(data); return; } } catch (e) { if (e.offline) { goOffline(); return; } }
  }
  let id = null;
  try { id = localStorage.getItem("yukon.game"); } catch (e) { id = null; }
  if (id) {
    try { const data = await known(id); if (data) { resumed(data); return; } } catch (e) { if (e.offline) { goOffline(); return; } }
  }
  // (none on a first visit: 204, not an error the console would show)
  try {
    const latest = await api("GET", "/api/games/latest?missing_ok=true");
    if (latest) { resumed(latest); return; }
  } catch (e) { if (e.offline) { goOffline(); return; } }
  // a first visit (no game to resume, here or on the server): the table says how to play
  await newGame({ variant: settings.variant, options: settings.options, winnableOnly: false, welcome: true });
}
// For the browser tests and bench/web.py (the page's own modules import what they use): the state, the layout,
// the moves' round trips, and the page's own requests and actions.
window.yukon = {
  get state() { return S.state; }, get geom() { return S.geom; }, get offline() { return S.offline; }, timings,
  get replay() { return S.replay; }, newGame, sendMove, undo, redo, queue: () => S.queue,
  api, accept, enqueue, say, settings, saveSettings, describeMove, parseMove, ask, focusLost,
  stepReplay, jumpReplay, toggleLine, closeReplay, analyse, wideLabel, onReplayShown,
};
// the game is asked for once the page's other scripts have run too: shown while demo.js or analysis.js was still
// on its way, the game took no T or W (their keys are theirs), and a key pressed at once was lost. (A module runs
// once the page is parsed, before DOMContentLoaded, which waits for every module of the page.)
document.addEventListener("DOMContentLoaded", start, { once: true });
