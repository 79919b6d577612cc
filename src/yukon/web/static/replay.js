/* The replay: step through the game's moves (read-only), and its bar. */
import { hideBanner, stopCascade } from "./banner.js";
import { clearHint, foundationZoneFor } from "./hints.js";
import { groupEls } from "./pointer.js";
import { render } from "./render.js";
import { api, enqueue } from "./server.js";
import { say } from "./status.js";
import { $, S, table } from "./store.js";
import { describeMove, moveNo, parseMove } from "./words.js";

let replayReq = 0;
// Every position comes from the server (GET /replay), which shows only what the player has seen: the page
// is never given a record with face-down cards while the game is in play. Nothing changes the game but
// "Play from here" (undo to that move; for a finished game, a new game from its record cut there).
function replayView(pos) {
  return {
    ...S.replay.live, tableau: pos.tableau, foundations: pos.foundations, foundation_piles: pos.foundation_piles,
    stock_count: pos.stock_count, waste: pos.waste,
    cards_on_foundations: pos.cards_on_foundations, face_down_count: pos.face_down_count,
    move_count: pos.at + pos.then.length, moves_made: moveNo(pos.at, S.replay.live) + pos.then.length, legal_moves: [], best_moves: {}, foundation_moves: {},
    can_undo: false, can_redo: false, status: "replay", played: [],
  };
}
export function beginReplay(live, analysis) {
  // (``first``: the replay starts where the player's game did, after the deal's automatic plays)
  S.replay = { live, at: -1, first: live.dealt || 0, total: live.move_count, moves: live.moves, cont: null, analysis,
    want: { at: live.move_count, k: 0 } };
  S.held = null;
  clearHint();
  stopCascade();
  table.classList.add("replaying");
}
export function endReplay() {  // the caller renders
  S.replay = null;
  replayReq++;
  table.classList.remove("replaying");
  $("replay-bar").hidden = true;
  coverHeader(false);
}
// The replay bar lies over the header: its controls are not to be tabbed to unseen. The page's heading stays
// (an inert header took the one h1 out of the page while the replay was open).
function coverHeader(on) {
  for (const el of document.querySelectorAll("header.bar .info, header.bar .actions")) el.inert = on;
}
export async function loadReplay(at, k = 0, played = []) {
  const r = S.replay;
  if (!r) return;
  const req = ++replayReq;
  const then = r.cont ? r.cont.moves.slice(0, k) : [];
  const q = `at=${at}` + (then.length ? `&then=${encodeURIComponent(then.join(" "))}` : "");
  const pos = await api("GET", `/api/games/${encodeURIComponent(r.live.id)}/replay?${q}`);
  if (S.replay !== r || req !== replayReq) return;
  r.at = at;
  if (r.cont) r.cont.k = k;
  S.state = replayView(pos);
  showReplayBar();
  render({ played });
  markReplay();
}
function replayTo(at, k = 0, played = []) {
  if (!S.replay) return S.queue;
  S.replay.want = { at, k };
  return enqueue(() => loadReplay(at, k, played));
}
export function openReplay() {
  if (!S.state || S.replay) return;
  if (!S.state.moves_made && S.state.result === null) { say("No moves to replay yet.", true); return; }
  hideBanner();
  beginReplay(S.state, null);
  say("Replay: ← → step through the moves, Esc closes. The game is not changed.");
  replayTo(S.state.move_count);
}
export function closeReplay() {
  if (!S.replay) return;
  S.state = S.replay.live;
  endReplay();
  render();
  // a finished game takes no more moves: say so, rather than "back to the game" at a table that does nothing;
  // and a game given up is said to be (moves were still possible: "it takes no more moves" alone read as a dead end)
  const result = S.state.result;
  say(result === null ? "Back to the game."
    : result === "abandoned" ? "This game was given up: it takes no more moves. New deal plays another."
    : "This game is over: it takes no more moves. New deal plays another.");
}
export function stepReplay(d) {  // (the promise: analysis.js plays the winning line one step after another)
  const r = S.replay;
  if (!r) return S.queue;
  if (r.cont) {
    const k = Math.max(0, Math.min(r.cont.moves.length, r.want.k + d));
    return k !== r.want.k ? replayTo(r.cont.from, k, d === 1 ? [r.cont.moves[k - 1]] : []) : S.queue;
  }
  const at = Math.max(r.first, Math.min(r.total, r.want.at + d));
  return at !== r.want.at ? replayTo(at, 0, d === 1 ? [r.moves[at - 1]] : []) : S.queue;
}
export function jumpReplay(n) {  // n: a move number of what the slider shows (the game's moves, or the winning line)
  const r = S.replay;
  if (!r) return S.queue;
  if (r.cont) return replayTo(r.cont.from, Math.max(0, Math.min(r.cont.moves.length, n)));
  return replayTo(Math.max(r.first, Math.min(r.total, r.first + n)));
}
export function replayKey(e) {
  const key = e.key, onSlider = e.target && e.target.id === "replay-slider";
  if ((key === "ArrowLeft" || key === "ArrowRight") && !onSlider) { e.preventDefault(); stepReplay(key === "ArrowLeft" ? -1 : 1); return; }
  if ((key === "Home" || key === "End") && !onSlider) { e.preventDefault(); jumpReplay(key === "Home" ? 0 : Infinity); return; }
  if (key === "Escape") { e.preventDefault(); if (S.replay.cont) toggleLine(); else closeReplay(); return; }
  if (key === "p" || key === "P") { closeReplay(); return; }
  if (key === "?") $("dlg-help").showModal();
}
function clearMarks() { table.querySelectorAll(".hint, .losing").forEach((x) => x.classList.remove("hint", "losing")); }
function markMove(text, cls) {
  const mv = parseMove(text);
  if (!mv) return;
  if (mv.src === "S") { if (S.zones.S) S.zones.S.classList.add(cls); return; }
  groupEls(mv.src, mv.card, mv.count).forEach((el) => el.classList.add(cls));
  const dz = mv.dst === "F" ? foundationZoneFor(mv.card) : S.zones[mv.dst];
  if (dz) dz.classList.add(cls);
}
// the move about to be played is lit; the losing move in red
function markReplay() {
  const r = S.replay;
  clearMarks();
  if (!r) return;
  const next = r.cont ? r.cont.moves[r.cont.k] : r.moves[r.at];
  if (next) markMove(next, !r.cont && r.analysis && r.analysis.losing_move === r.at + 1 ? "losing" : "hint");
}
function showReplayBar() {
  const r = S.replay, bar = $("replay-bar");
  bar.hidden = !r;
  if (!r) return;
  fitReplayBar();
  coverHeader(true);
  const a = r.analysis, c = r.cont, over = r.live.result !== null;
  const at = c ? c.k : r.at, end = c ? c.moves.length : r.total;
  const first = c ? 0 : r.first, shownAt = at - first, shownEnd = end - first;  // (the game's moves as counted)
  bar.classList.toggle("line", !!c);
  const slider = $("replay-slider");
  slider.max = String(shownEnd);
  slider.value = String(shownAt);
  slider.setAttribute("aria-valuetext", c ? `winning line, move ${at} of ${end}` : `move ${shownAt} of ${shownEnd}`);
  $("replay-first").disabled = $("replay-back").disabled = at <= first;
  $("replay-forward").disabled = $("replay-last").disabled = at >= end;
  $("replay-pos").textContent = c ? `Winning line: move ${at} of ${end}` : `Move ${shownAt} of ${shownEnd}`;
  const next = c ? c.moves[at] : r.moves[at];
  const losing = !c && a && a.losing_move === at + 1;
  $("replay-next").textContent = next
    ? `${losing ? "Next, the move that lost the game" : "Next"}: ${describeMove(parseMove(next))}`
    : c ? "Won: every card is up." : over ? "The end of the game." : "Where you are now in the game.";
  const mark = $("replay-mark");
  mark.hidden = !(a && a.losing_move && !c);
  if (!mark.hidden) mark.style.left = `${((a.losing_move - r.first) / Math.max(1, r.total - r.first)) * 100}%`;
  const line = $("replay-line");
  line.hidden = !lineOf(a, r.total);
  wideLabel(line, c ? "{Back to the }game's moves" : "{Show the }winning line");
  const ask = $("replay-analyse");
  ask.hidden = !!a || r.live.result === "won";
  // (what it costs is said at every width: a phone read only "Where did it go wrong?")
  ask.textContent = over ? "Where did it go wrong?" : "Where did it go wrong? (ends the game)";
  $("replay-export").hidden = !over;
  wideLabel($("replay-play"), over ? "Play on{ from here (a new game)}" : "Play from here");
  $("replay-play").title = over ? "Play on from here: a new game from this move" : "Back into play at this move (Redo plays the later ones)";
  const text = $("replay-analysis");
  text.hidden = !a;
  // (the button's name as it reads: without its "Show the" on a phone)
  if (a) { wideLabel(text, analysisText(a, r.moves, !!c)); text.classList.toggle("lost", !!a.losing_move); }
  replayHooks.forEach((f) => f(r));
}
const replayHooks = [];  // called with the replay each time its bar is shown
// (analysis.js plays the winning line on, fit.js fits the bar's text)
export const onReplayShown = (f) => { replayHooks.push(f); };
// The replay bar lies over the header and the status line, exactly as tall as they are: the table keeps its
// box and the cards their places when it comes and goes (style.css).
function fitReplayBar() {
  const bar = $("replay-bar");
  if (!bar.hidden) bar.style.height = `${table.getBoundingClientRect().top}px`;
}
window.addEventListener("resize", fitReplayBar);
// a button's label whose {parts} a phone leaves out (.wide), or puts in other words ({wide|narrow}: a phone shows
// the .narrow part instead): its accessible name is what it shows
export function wideLabel(el, text) {
  const span = (className, textContent) => Object.assign(document.createElement("span"), { className, textContent });
  el.replaceChildren(...text.split(/(\{[^}]*\})/).filter(Boolean).flatMap((part) => {
    if (part[0] !== "{") return [document.createTextNode(part)];
    const [wide, narrow] = part.slice(1, -1).split("|");
    return narrow === undefined ? [span("wide", wide)] : [span("wide", wide), span("narrow", narrow)];
  }));
}
// (``showing``: the winning line is on the table, and its button says "Back to the game's moves": the words that
// say to press "Show the winning line" go. On a phone they name it as its button reads there: "Winning line")
function analysisText(a, moves, showing = false) {
  if (a.losing_move) {
    const mv = parseMove(moves[a.losing_move - 1] || "");
    return `Move ${moveNo(a.losing_move, S.replay ? S.replay.live : S.state)} lost the game${mv ? ` (${describeMove(mv).replace(/^./, (ch) => ch.toLowerCase())})` : ""}: before it, the game could still be won by someone seeing every card.`
      + (showing ? "" : ' "{Show the w|W}inning line" plays what would have won, move by move.');
  }
  if (a.start === "lost") return "This deal could not be won from the start, even seeing every card: no move of yours lost it.";
  if (a.end === "won") return "You won: no move lost the game.";
  if (a.losing_range && a.range_text) return `${a.range_text}.`;
  if (a.end === "winnable") {
    return "The game could still be won where it was left: no move lost it."
      + (a.winning_line && a.winning_line.length && !showing ? ' "{Show the w|W}inning line" plays a way to win from there.' : "");
  }
  return "The solver could not decide in time where the game was lost.";
}
// the winning line an analysis shows: from before the move that lost the game, or from where a game still
// winnable was left (of ``total`` moves)
function lineOf(a, total) {
  if (!a) return null;
  if (a.losing_move && a.continuation.length) return { from: a.losing_move - 1, moves: a.continuation };
  if (a.end === "winnable" && a.winning_line && a.winning_line.length) return { from: total, moves: a.winning_line };
  return null;
}
export function toggleLine() {
  const r = S.replay;
  const found = r && lineOf(r.analysis, r.total);
  if (!found) return;
  const from = found.from;
  if (r.cont) { r.cont = null; replayTo(from); return; }
  r.cont = { from, moves: found.moves, k: 0 };
  say("The winning line: → plays it move by move.");
  replayTo(from, 0);
}

// the bar's controls (records.js wires its buttons that change or save the game)
$("replay-first").addEventListener("click", () => jumpReplay(0));
$("replay-back").addEventListener("click", () => stepReplay(-1));
$("replay-forward").addEventListener("click", () => stepReplay(1));
$("replay-last").addEventListener("click", () => jumpReplay(Infinity));
let sliderTimer = 0;
$("replay-slider").addEventListener("input", (e) => {
  clearTimeout(sliderTimer);
  const n = +e.target.value;
  sliderTimer = setTimeout(() => jumpReplay(n), 40);
});
$("replay-line").addEventListener("click", toggleLine);
$("replay-close").addEventListener("click", closeReplay);
