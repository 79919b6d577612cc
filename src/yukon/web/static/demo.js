/* Watch the computer play: the honest player (it sees only what the player sees) plays the game move by move.

Each move is decided and played on the server (POST /api/games/{id}/demo-move, in the solver's queue) and
comes back as a player's move does: the state with the moves played, animated the same way. The pause after
each move is the speed the player sets (saved with the settings). Stop (the button, Esc), or any move of the
player's, ends it at once: the page asks the server to stop the search (demo-stop), so a move in flight is not
played. A game the computer played in is not counted in the statistics (the server marks it). */
import { ask } from "./dialogs.js";
import { focusLost } from "./focus.js";
import { accept, newGame } from "./play.js";
import { api, enqueue } from "./server.js";
import { saveSettings, settings } from "./settings.js";
import { say } from "./status.js";
import { $, S } from "./store.js";
import { describeMove, parseMove } from "./words.js";

//: the pause after each move, ms (yukon.demo.SPEEDS, the terminal's speeds)
const SPEEDS = { slow: 2000, normal: 800, fast: 250, fastest: 0 };
const ORDER = ["slow", "normal", "fast", "fastest"];
//: after "busy" or "timeout" the page waits at least this long before it asks again
const RETRY_MS = 1000;
let run = null;   // the demo in progress: {id, paused, timer, busy, once, moves, hiddenPause, last}; null when none
const speed = () => (SPEEDS[settings.demoSpeed] === undefined ? "normal" : settings.demoSpeed);
const capital = (text) => text.replace(/^./, (c) => c.toUpperCase());
const playing = () => S.state && S.state.status === "playing" && S.state.result === null;

function showBar() {
  const bar = $("demo-bar");  // (over the status line: the table does not move when it comes or goes)
  bar.hidden = !run;
  if (!run) bar.classList.remove("open");
  $("btn-demo").setAttribute("aria-pressed", run ? "true" : "false");
  $("btn-demo").querySelector(".ico").textContent = run ? "■" : "▶";
  $("btn-demo").querySelector("span:last-child").textContent = run ? "Stop" : "Watch";
  if (!run) { coverActions(); return; }
  bar.classList.toggle("paused", run.paused);
  $("demo-pause").textContent = run.paused ? "Resume" : "Pause";
  $("demo-pause").title = run.paused ? "Resume (Space)" : "Pause (Space)";
  $("demo-step").hidden = !run.paused;
  $("demo-speed").value = speed();
  coverActions();
}
// A phone has no room over the table for the bar (it hid the foundations): there it lies over the toolbar's row
// of buttons and the status line, its controls in the toolbar's place, the computer's words under them on the
// whole width. The toolbar is no use while the computer plays (a button of it takes over), and it is inert
// under the bar: no Tab goes to a button out of sight.
const phone = window.matchMedia ? window.matchMedia("(max-width: 640px)") : null;
// Paused, when the words do not fit there, the bar takes the deal's line of the header too (nothing changes
// there while the computer waits): the player paused to read them.
function coverActions() {
  const bar = $("demo-bar"), what = $("demo-what");
  const actions = document.querySelector("header.bar .actions"), info = document.querySelector("header.bar .info");
  const over = !!run && !!phone && phone.matches && !S.replay;
  bar.classList.toggle("over-actions", over);
  bar.classList.remove("tall");
  if (!over) {
    bar.style.top = ""; bar.style.height = "";
    if (!S.replay) { actions.inert = false; info.inert = false; }
    return;
  }
  const main = bar.offsetParent ? bar.offsetParent.getBoundingClientRect() : { top: 0 };
  const bottom = $("status-row").getBoundingClientRect().bottom;
  const cover = (el) => {
    const top = el === info ? document.querySelector("header.bar").getBoundingClientRect().top : el.getBoundingClientRect().top;
    bar.style.top = `${Math.round(top - main.top)}px`;
    bar.style.height = `${Math.round(bottom - top)}px`;
  };
  cover(actions);
  const whole = what.scrollHeight <= what.clientHeight + 1;
  if (run.paused && !whole) { cover(info); bar.classList.add("tall"); }
  actions.inert = true;
  info.inert = run.paused && !whole;
}
window.addEventListener("resize", coverActions);
//: a keyboard to press keys on (not a phone's touch screen): only then do the bar's words name keys
const keyboard = window.matchMedia ? window.matchMedia("(hover: hover) and (pointer: fine)") : null;
function tell(text) { $("demo-what").textContent = text; $("demo-what").title = text; coverActions(); }
function updateButton() {
  const b = $("btn-demo");
  b.disabled = !run && (!S.state || !!S.replay || S.offline);
}
document.addEventListener("yukon:chrome", updateButton);

async function start() {
  if (run || !S.state || S.replay) return;
  if (!playing()) {  // a finished game takes no more moves: the computer plays a new deal of the same game
    await newGame({ variant: S.state.variant, options: S.state.rules });
    if (!playing()) return;
  } else if (S.state.player_moved && !S.state.computer_moves && S.state.moves_made > 0) {
    const asked = `${S.state.id} ${S.state.move_count}`;
    const yes = await ask({
      title: "Let the computer play on?",
      text: "The computer plays on from here. A game the computer played in is not counted in your statistics.",
      ok: "Watch it play",
    });
    if (!yes || run || !S.state || `${S.state.id} ${S.state.move_count}` !== asked || S.replay) return;  // (or it changed)
  }
  run = { id: S.state.id, paused: false, timer: 0, busy: false, once: false, moves: 0, hiddenPause: false, last: "" };
  showBar();
  tell("The computer plays: it sees only what you see. Esc or a move of yours takes over.");
  say("Watching the computer play");
  step(run);
}
// ask the server to stop the search now (not behind the queue: the player's next move waits for it)
function stopSearch(r) {
  api("POST", `/api/games/${encodeURIComponent(r.id)}/demo-stop`).catch(() => {});
}
function stop(message) {
  const r = run;
  if (!r) return;
  run = null;
  clearTimeout(r.timer);
  if (r.busy) stopSearch(r);
  showBar();
  updateButton();
  focusLost();  // (the bar hidden: the focus on one of its buttons is lost with it)
  if (message) say(message);
}
function pause(on, hidden = false) {
  const r = run;
  if (!r || r.paused === on) return;
  r.paused = on;
  r.hiddenPause = on && hidden;
  clearTimeout(r.timer);
  if (on) {
    if (r.busy && !r.once) stopSearch(r);  // (a Step's move is the one asked for: it is let through)
    tellPaused(r);
  } else {
    tell("The computer plays: it sees only what you see.");
    step(r);
  }
  showBar();
}
// Paused, the bar still says what the computer did last, word for word (the player paused to look at it: on a
// phone's two lines the move comes first), then that it is paused and how to go on
function tellPaused(r) {
  const how = r.hiddenPause ? "paused while the page is hidden."
    : keyboard && keyboard.matches ? "paused. Resume (Space) plays on, Step (→) plays one move; a move of yours takes over."
      : "paused.";  // (a phone's three lines: the move, its odds; Resume and Step say the rest)
  tell(r.last ? `The computer: ${r.last} — ${how}` : `${capital(how)}`);
}
function later(r, ms) {
  clearTimeout(r.timer);
  r.timer = setTimeout(() => step(r), ms);
}

// Paused, one move of the computer's (Step), and the pause goes on: for a player who wants to follow each move
function stepOnce() {
  const r = run;
  if (!r || !r.paused || r.busy) return;
  r.once = true;
  step(r);
}

function step(r) {
  if (run !== r || (r.paused && !r.once) || r.busy) return;
  r.busy = true;
  let answer = null;
  enqueue(async () => {
    if (run !== r || (r.paused && !r.once) || !S.state || S.state.id !== r.id) return;
    tell("The computer is thinking…");
    const data = await api("POST", `/api/games/${encodeURIComponent(r.id)}/demo-move`,
      { autoplay: !!settings.autoplay, autofinish: !!settings.autofinish });
    if (data.played.length) accept(data);  // played on the server: shown even if stopped meanwhile
    answer = data;
  }).then(() => {
    r.busy = false;
    const once = r.once;
    r.once = false;
    if (run !== r) return;
    const d = answer && answer.demo;
    if (d && d.reason === "move") {  // (played even if paused meanwhile: then the pause names this move)
      r.moves++;
      const mv = parseMove(d.move);
      const why = d.source === "samples" && d.odds ? ` (${d.odds})`
        : d.source === "safe" ? " (safe to play up)" : d.source === "only move" ? " (the only move)" : "";
      const auto = answer.played.length - 1;
      r.last = `${mv ? describeMove(mv) : d.move}${auto > 0 ? ` (+${auto} automatic)` : ""}${why}`;
    }
    if (r.paused && !once) { tellPaused(r); return; }
    if (!answer) { stop(); return; }  // the request failed (the page says why) or the game changed hands
    if (d.reason === "move") {
      tell(`The computer: ${r.last}`);
      if (answer.status === "won") stop("The computer won: this game is not counted in your statistics.");
      else if (answer.status !== "playing") stop("No moves left: the computer could not win this deal.");
      else if (r.paused) tellPaused(r);  // (a Step: it stays paused)
      else later(r, SPEEDS[speed()]);
      return;
    }
    if (d.reason === "won") { stop("The game is won."); return; }
    if (d.reason === "no move") { stop("No moves left: the computer stops."); return; }
    if (d.reason === "repeats") {
      stop("The computer sees no way forward that does not go round in circles: it stops here. Play on, or deal again.");
      return;
    }
    // stopped by another tab, the position changed, the solver busy or slow: try again in a moment (a Step:
    // the player does, with Step again)
    if (r.paused) { tell(d.reason === "busy" ? "The solver is busy: Step again in a moment." : "No move yet: Step again."); return; }
    tell(d.reason === "busy" ? "The solver is busy: the computer waits…" : "The computer is thinking…");
    later(r, Math.max(SPEEDS[speed()], d.reason === "busy" || d.reason === "timeout" ? RETRY_MS : 0));
  });
}

$("btn-demo").addEventListener("click", () => { if (run) stop("Stopped: play on from here."); else start(); });
// on a phone the bar's text stops at two lines (the computer's odds cut off), and a touch has no hover to show its
// title: a tap on it shows it whole, over the top of the table, until a second tap or the end of the watch
$("demo-what").addEventListener("click", () => { if (run) $("demo-bar").classList.toggle("open"); });
// a click or tap on the bar's buttons leaves the focus where it was: else Space, which Help and the bar promise
// pauses and plays on, pressed the button last clicked (Step, then Space, stepped again). A button reached by Tab
// keeps the focus and takes Space and Enter as any button does (Help says so).
$("demo-bar").addEventListener("mousedown", (e) => { if (e.target.closest && e.target.closest("button")) e.preventDefault(); });
$("demo-stop").addEventListener("click", () => stop("You took over: play on from here."));
$("demo-pause").addEventListener("click", () => pause(!run.paused));
$("demo-step").addEventListener("click", stepOnce);
$("demo-speed").addEventListener("change", (e) => {
  settings.demoSpeed = e.target.value;
  saveSettings();
  if (run && !run.paused && !run.busy) later(run, SPEEDS[speed()]);
});
document.addEventListener("visibilitychange", () => {
  if (!run) return;
  if (document.hidden) pause(true, true);
  else if (run.hiddenPause) pause(false);
});

// The player takes over with any move of theirs: a card touched, a game button, a key (Esc only stops).
const ours = (el) => el && el.closest && el.closest("#demo-bar, #btn-demo");
window.addEventListener("pointerdown", (e) => {
  if (!run || ours(e.target)) return;
  if (e.target.closest && e.target.closest("#table, .actions button, .banner-buttons button, #replay-bar")) {
    stop("You took over: play on from here.");
  }
}, true);
window.addEventListener("keydown", (e) => {
  const inField = e.target.closest && e.target.closest("input:not([type=range]), select, textarea, dialog:not(#banner)");
  const plain = !e.ctrlKey && !e.metaKey && !e.altKey;
  if (!run) {
    if (plain && !inField && (e.key === "t" || e.key === "T") && !S.replay) { e.preventDefault(); start(); }
    return;
  }
  if (inField) {  // a dialog, or the speed list: Esc there closes it (on the speed list it stops, too)
    if (e.key === "Escape" && ours(e.target)) stop("Stopped: play on from here.");
    return;
  }
  if (["Shift", "Control", "Alt", "Meta", "Tab", "?"].includes(e.key)) return;
  if (e.key === "Escape") { e.preventDefault(); e.stopImmediatePropagation(); stop("Stopped: play on from here."); return; }
  const barControl = e.target.closest && e.target.closest("#demo-bar button");
  if (barControl && (e.key === "Enter" || e.key === " ")) return;  // a button of the bar does what it says
  if (plain && e.key === " ") { e.preventDefault(); e.stopImmediatePropagation(); pause(!run.paused); return; }
  if (plain && e.key === "ArrowRight" && run.paused) { e.preventDefault(); e.stopImmediatePropagation(); stepOnce(); return; }
  if (plain && (e.key === "t" || e.key === "T")) { e.preventDefault(); stop("Stopped: play on from here."); return; }
  if (plain && (e.key === "+" || e.key === "-")) {  // faster, slower
    const k = Math.max(0, Math.min(ORDER.length - 1, ORDER.indexOf(speed()) + (e.key === "+" ? 1 : -1)));
    settings.demoSpeed = ORDER[k];
    saveSettings();
    showBar();
    say(`Speed: ${ORDER[k]}`);
    return;
  }
  stop("You took over: play on from here.");
}, true);

// A phone's toolbar holds nine buttons of 40 px: there the Watch button sits at the end of the status line.
function placeButton() {
  const b = $("btn-demo");
  if (phone && phone.matches) $("status-row").appendChild(b);
  else $("btn-replay").before(b);
  b.classList.toggle("status-watch", !!(phone && phone.matches));
}
placeButton();
if (phone && phone.addEventListener) phone.addEventListener("change", placeButton);

window.yukon.demo = {  // (for the tests)
  start, stop, pause: (on = true) => pause(on), step: stepOnce,
  get running() { return !!run && !run.paused; }, get active() { return !!run; },
  get moves() { return run ? run.moves : 0; },
};
updateButton();
