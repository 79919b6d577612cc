/* "Where did it go wrong?" on the replay: the solver's winning line from the position before the losing
move plays itself out on the replay board, one move after another, with a button (and Space) to pause and
play on; the replay's own controls (← →, the slider, Home/End) step through it by hand and pause it. W asks
for the analysis at any time (a game in play is ended first: the answer shows face-down cards).

A module of its own, loaded after main.js (docs/web.md). */
import { analyse } from "./records.js";
import { jumpReplay, onReplayShown, stepReplay, wideLabel } from "./replay.js";
import { saveSettings, settings } from "./settings.js";
import { say } from "./status.js";
import { $, S } from "./store.js";

const button = $("replay-animate");
//: milliseconds between two moves of the line, by the speed the demo's setting names (+ and − change it
//: here too): even the fastest leaves time to see the card go and land
const STEP_MS = { slow: 2000, normal: 900, fast: 400, fastest: 150 };
const SPEED_ORDER = ["slow", "normal", "fast", "fastest"];
const speed = () => (STEP_MS[settings.demoSpeed] === undefined ? "normal" : settings.demoSpeed);
let playing = false;
let timer = 0;
let line = null;  // the winning line (replay.cont) last seen, to start each new one playing

const shownLine = () => (S.replay && S.replay.cont ? S.replay : null);
const atEnd = (r) => r.want.k >= r.cont.moves.length;

function label() {
  const r = shownLine();
  button.hidden = !r;
  if (!r) return;
  const ended = atEnd(r) && !playing;
  wideLabel(button, playing ? "‖ Pause" : ended ? "↻ Play{ the line} again" : "▶ Play{ the line}");
  button.setAttribute("aria-pressed", playing ? "true" : "false");
  button.title = playing ? "Pause the winning line (Space)" : "Play the winning line move by move (Space)";
}
function pause() {
  playing = false;
  clearTimeout(timer);
  label();
}
function later() {
  clearTimeout(timer);
  timer = setTimeout(step, STEP_MS[speed()]);
}
async function step() {
  const r = shownLine();
  if (!playing || !r || atEnd(r)) { pause(); return; }
  try {
    await stepReplay(1);
  } catch (err) {
    pause();
    return;
  }
  const now = shownLine();
  if (!playing || now !== r) return;
  if (atEnd(now)) { pause(); say("The winning line is played out: every card is up. ← → step back through it, Esc returns to the game's moves."); return; }
  later();
}
async function play() {
  const r = shownLine();
  if (!r) return;
  playing = true;
  label();
  if (atEnd(r)) {  // again from the position before the losing move
    await jumpReplay(0);
    if (!playing || shownLine() !== r) return;
  }
  later();
}
const toggle = () => (playing ? pause() : play());

onReplayShown((r) => {
  if (!r.cont) { line = null; pause(); return; }
  if (r.cont !== line) {  // the line was just opened: play it
    line = r.cont;
    play();
    // Space pauses: the focus leaves the button that opened the line (Space would press it, back to the game)
    button.focus({ preventScroll: true });
    say("The winning line plays itself out: Space pauses, ← → step by hand, + − change the speed.");
    return;
  }
  label();
});

button.addEventListener("click", toggle);
// a step by hand pauses the line
for (const id of ["replay-first", "replay-back", "replay-forward", "replay-last", "replay-line", "replay-close", "replay-play"]) {
  $(id).addEventListener("click", () => { if (playing) pause(); });
}
$("replay-slider").addEventListener("input", () => { if (playing) pause(); });
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && t.closest && t.closest("input:not([type=range]), select, textarea, dialog:not(#banner)")) return;
  if (shownLine()) {
    if (e.key === " " && !(t && t.closest && t.closest("button"))) { e.preventDefault(); toggle(); return; }
    if (e.key === "+" || e.key === "-") {  // faster, slower: the demo's speed setting, saved
      e.preventDefault();
      const k = Math.max(0, Math.min(SPEED_ORDER.length - 1, SPEED_ORDER.indexOf(speed()) + (e.key === "+" ? 1 : -1)));
      settings.demoSpeed = SPEED_ORDER[k];
      saveSettings();
      say(`Speed: ${SPEED_ORDER[k]}`);
      if (playing) later();
      return;
    }
    if (["ArrowLeft", "ArrowRight", "Home", "End", "Escape"].includes(e.key) && playing) pause();
    return;
  }
  if ((e.key === "w" || e.key === "W") && S.state && !(S.replay && S.replay.analysis)) {
    if (S.state.result === "won") { say("You won: no move lost this game.", false); return; }
    e.preventDefault();
    analyse();
  }
});
document.addEventListener("visibilitychange", () => { if (document.hidden && playing) pause(); });
