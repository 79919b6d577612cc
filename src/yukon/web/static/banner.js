/* The box at the end of a game (won, lost, over elsewhere), and the won game's cascade of cards. */
import { focusLost } from "./focus.js";
import { newGame } from "./play.js";
import { api } from "./server.js";
import { motion } from "./settings.js";
import { offer, say } from "./status.js";
import { $, S, cardEls } from "./store.js";
import { dealName, fmtTime, plural } from "./words.js";

async function statsLine() {
  // streaks and best time of this variant with these options, for the win box
  try {
    const { stats } = await api("GET", `/api/stats?variant=${encodeURIComponent(S.state.variant)}`);
    const row = stats.find((s) => s.options.empty_column === S.state.rules.empty_column && s.options.foundation_return === S.state.rules.foundation_return && s.numbering === (S.state.numbering || "yukon"));
    if (!row) return "";
    const best = row.best_time === null ? "–" : fmtTime(row.best_time);
    const record = S.state.status === "won" && row.best_time !== null && Math.abs(row.best_time - S.state.elapsed) < 0.01 && row.won > 1 ? " (a new best!)" : "";
    return `Streak ${row.current_streak} · best streak ${row.best_streak} · best time ${best}${record} · won ${row.won} of ${row.played}`;
  } catch (e) { return ""; }
}

export function showBanner() {
  const key = S.state.id + ":" + S.state.status + ":" + S.state.move_count;
  if (S.lastBannerFor === key) return;
  S.lastBannerFor = key;
  const box = document.querySelector(".banner-box");
  const title = $("banner-title"), text = $("banner-text");
  box.classList.remove("won", "lost", "over");
  $("banner-stats-line").textContent = "";
  $("banner-analyse").hidden = true;
  $("banner").classList.toggle("win", S.state.status === "won");  // no dimming: the cascade shows
  if (S.state.status === "won") {
    box.classList.add("won");
    title.textContent = S.state.computer_moves ? "The computer won!" : "You won!";
    text.textContent = `${S.state.title}, ${dealName(S.state)}: ${plural(S.state.moves_made, "move")} in ${fmtTime(S.state.elapsed)}.`
      + (S.state.computer_moves ? ` The computer chose ${plural(S.state.computer_moves, "move")}: the game is not counted in your statistics.` : "");
    $("banner-undo").hidden = true;
    // your streak and best time belong under your win, not under the computer's (it counts for nothing)
    const id = S.state.id;
    if (!S.state.computer_moves) statsLine().then((t) => { if (S.state.id === id) $("banner-stats-line").textContent = t; });
    cascade();
  } else if (S.state.status === "lost") {
    box.classList.add("lost");
    // the computer's dead end is its own, as its win is: not counted (else it reads as the player's loss)
    title.textContent = S.state.computer_moves ? "The computer lost: no moves left" : "No moves left";
    text.textContent = `The game is lost with ${S.state.cards_on_foundations} of ${S.state.card_count} cards on the foundations.`
      + (S.state.computer_moves ? ` The computer chose ${plural(S.state.computer_moves, "move")}: the game is not counted in your statistics.` : "")
      + " Undo, or start a new game.";
    $("banner-undo").hidden = !S.state.can_undo;
    $("banner-analyse").hidden = false;
    $("banner-analyse").textContent = "Give up: where did it go wrong?";
  } else {
    return;
  }
  $("banner-new").textContent = "Next deal";
  openBanner();
  say(title.textContent, false, true);
}
// A game that ended elsewhere (another tab, the phone) or before this page opened: say so, offer a new deal.
export function showEnded(elsewhere) {
  const key = S.state.id + ":ended";
  if (S.lastBannerFor === key) return;
  S.lastBannerFor = key;
  const box = document.querySelector(".banner-box");
  box.classList.remove("won", "lost", "over");
  box.classList.add("over");
  $("banner").classList.remove("win");
  const where = elsewhere ? " (in another tab or window)" : "";
  const how = S.state.result === "won" ? `It was won${where}: ${plural(S.state.moves_made, "move")} in ${fmtTime(S.state.elapsed)}.`
    : S.state.result === "lost" ? `It was left at a dead end${where}: it counts as lost.`
    : `It was given up, or left for another game${where}: it counts as not won.`;
  $("banner-title").textContent = "This game is over";
  $("banner-text").textContent = `${how} A finished game takes no more moves.`;
  $("banner-stats-line").textContent = "";
  $("banner-undo").hidden = true;
  $("banner-analyse").hidden = S.state.result === "won";
  $("banner-analyse").textContent = "Where did it go wrong?";
  $("banner-new").textContent = "New deal";
  openBanner();
  say(`This game is over: ${how[0].toLowerCase()}${how.slice(1)}`, false, true);  // (one sentence: "over: it was won")
  offer("New deal", () => newGame({ variant: S.state.variant, options: S.state.rules }));
}
// The box at the end of a game is a modal dialog: the focus goes into it (on the next deal: Enter plays on) and
// stays there, Esc closes it. (Its `hidden` follows it: the tests and the styles know it by that.)
function openBanner() {
  const dlg = $("banner");
  dlg.hidden = false;
  if (!dlg.open) dlg.showModal();
  $("banner-new").focus();
}
export function hideBanner() {
  const dlg = $("banner");
  dlg.hidden = true;
  if (dlg.open) dlg.close();
}
// closed, the focus goes back where it was; when that is gone (the cards drawn anew), to the table, not to the
// page (unless another dialog took it: Statistics from the box)
$("banner").addEventListener("close", () => {
  $("banner").hidden = true;
  focusLost();
});

// The celebration: a cascade of the foundation cards (none without motion).
let cascadeLayer = null;
export function stopCascade() {
  if (cascadeLayer) { cascadeLayer.remove(); cascadeLayer = null; }
}
function cascade() {
  stopCascade();
  if (!motion() || !S.geom) return;
  const layer = cascadeLayer = document.createElement("div");
  layer.className = "cascade";
  layer.setAttribute("aria-hidden", "true");
  document.body.appendChild(layer);
  const floor = window.innerHeight - S.geom.H;
  const piles = S.state.foundations.map((p, j) => ({ j, cards: [...p] }));
  let n = 0;
  for (let level = 13 * 2; level >= 0 && n < 60; level--) {
    for (const p of piles) {
      const name = p.cards.pop();
      if (!name || n >= 60) continue;
      const it = S.items.find((x) => x.pile === "f" + p.j && x.name === name);
      const src = it && cardEls.get(it.key);
      if (!src) continue;
      const r = src.getBoundingClientRect();
      const el = src.cloneNode(true);
      el.removeAttribute("role"); el.removeAttribute("aria-label"); el.removeAttribute("tabindex");
      el.className = "card up cascade-card";
      el.style.transform = "none";
      el.style.left = r.left + "px";
      el.style.top = r.top + "px";
      layer.appendChild(el);
      // a bouncing path: gravity, a floor, losing a third of the speed at each bounce, out at a side
      let x = 0, y = 0, vx = (Math.random() < 0.5 ? -1 : 1) * (3 + Math.random() * 4), vy = -2 - Math.random() * 4;
      const frames = [];
      for (let t = 0; t < 240 && r.left + x > -S.geom.W && r.left + x < window.innerWidth + 10; t++) {
        frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, opacity: 1 });
        vy += 0.6; x += vx; y += vy;
        if (r.top + y > floor) { y = floor - r.top; vy = -vy * 0.66; }
      }
      frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, opacity: 0 });
      const delay = n * 110;
      el.animate(frames, { duration: frames.length * 16, delay, fill: "both", easing: "linear" });
      n++;
    }
  }
  setTimeout(() => { if (cascadeLayer === layer) stopCascade(); }, n * 110 + 4200);
}
