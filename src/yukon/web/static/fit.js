/* Text that does not fit its line is not lost: the replay bar's text (a phone has room there for about one
line of the analysis) gets a "More" button that opens the bar over the top of the table to show all of it,
and the status line's message, when it is cut short (a phone's two lines, or a long message beside the
"still winnable?" verdict), is shown whole in a box that drops over the table for a few seconds (a click on
the message shows it again).

Both lie over the table: nothing moves. A module of its own, loaded after
main.js (docs/web.md). */
import { onReplayShown } from "./replay.js";
import { $ } from "./store.js";

// ------------------------------------------------------------------ the replay bar's text
const bar = $("replay-bar"), text = bar.querySelector(".replay-text"), more = $("replay-more");
let shownFor = null;  // the replay the bar last showed: a new one starts closed
function fitReplayText() {
  if (bar.hidden) return;
  const open = bar.classList.contains("open");
  more.hidden = !open && text.scrollHeight <= text.clientHeight + 1;
  bar.classList.toggle("cut", !more.hidden);
  more.textContent = open ? "Less ▴" : "More ▾";
  more.setAttribute("aria-expanded", open ? "true" : "false");
  more.title = open ? "Fold the text away: the bar lies over the header only" : "Show all the text (over the top of the table)";
}
onReplayShown((r) => {
  if (r !== shownFor) { shownFor = r; bar.classList.remove("open", "cut"); }
  fitReplayText();
});
more.addEventListener("click", () => { bar.classList.toggle("open"); fitReplayText(); });

// ------------------------------------------------------------------ the status line's message
//: how long the whole message stays over the table (a click on the message shows it again)
const WHOLE_MS = 6000;
const message = $("message"), whole = $("message-whole");
let wholeTimer = 0, saidAt = -WHOLE_MS;
const isCut = () => !!message.textContent
  && (message.scrollHeight > message.clientHeight + 1 || message.scrollWidth > message.clientWidth + 1);
// ms: how long the box stays; null keeps the time it has (the box is only laid out again)
function showWhole(ms = WHOLE_MS) {
  if (ms !== null) clearTimeout(wholeTimer);
  const cut = isCut();
  message.classList.toggle("cut", cut);
  whole.hidden = !cut || !$("demo-bar").hidden || !bar.hidden;  // (a bar over the status line has its own text)
  if (whole.hidden) { clearTimeout(wholeTimer); whole.textContent = ""; return; }
  whole.textContent = message.textContent;
  whole.classList.toggle("error", message.classList.contains("error"));
  place();
  if (ms !== null) wholeTimer = setTimeout(() => { whole.hidden = true; }, ms);
}
// The box goes where it covers no card and no pile: under the status line when the top of the table is free
// there, else lower down over the felt, or beside the cards in a strip of felt wide enough (a long message over
// the top of the table hid the stock and foundations, a hint the very column it named). As wide as the message
// (the verdict and buttons beside it stay in sight), or as the strip.
const STRIP_MIN = 180;  // px: a strip beside the cards narrower than this would stack the words too high
function place() {
  const m = message.getBoundingClientRect(), main = whole.offsetParent ? whole.offsetParent.getBoundingClientRect() : { left: 0, top: 0, height: 0 };
  const rel = (r) => ({ left: r.left - main.left, right: r.right - main.left, top: r.top - main.top, bottom: r.bottom - main.top });
  const cards = [...document.querySelectorAll("#table .card, #table .slot")].map((e) => rel(e.getBoundingClientRect()))
    .filter((r) => r.right > r.left);
  const top0 = m.top - main.top, floor = main.height;
  // where the box lies at a width: [left, width of its words], and how tall it is then (its padding is outside)
  const tryAt = (left, width) => {
    whole.style.left = `${left}px`;
    whole.style.width = `${width}px`;
    whole.style.top = `${top0}px`;
    const r = rel(whole.getBoundingClientRect());
    return { left, width, x0: r.left, x1: r.right, h: r.bottom - r.top };
  };
  const over = (c, y) => cards.reduce((sum, r) => {
    const w = Math.min(c.x1, r.right) - Math.max(c.x0, r.left), h = Math.min(y + c.h, r.bottom) - Math.max(y, r.top);
    return sum + (w > 0 && h > 0 ? w * h : 0);
  }, 0);
  // (a box of its own beside the cards starts under the status line: over its first words it read as cut)
  const firstFree = (c) => {
    for (let y = c === options[0] ? top0 : m.bottom - main.top + 2; y + c.h <= floor; y += 4) if (!over(c, y)) return y;
    return null;
  };
  const options = [tryAt(m.left - main.left, m.width)];
  if (cards.length) {
    const lo = Math.min(...cards.map((r) => r.left)), hi = Math.max(...cards.map((r) => r.right)), pad = 12;
    if (lo - 2 * pad >= STRIP_MIN) options.push(tryAt(pad + 8, lo - 2 * pad - 16));
    if (main.width - hi - 2 * pad >= STRIP_MIN) options.push(tryAt(hi + pad + 8, main.width - hi - 2 * pad - 16));
  }
  let best = null;
  for (const c of options) {
    const y = firstFree(c);
    if (y !== null && (!best || y < best.y)) best = { c, y };
  }
  if (!best) {  // no room anywhere: where it covers least, under the status line at the best
    const c = options[0];
    best = { c, y: top0 };
    for (let y = top0; y + c.h <= floor; y += 4) if (over(c, y) < over(c, best.y)) best = { c, y };
  }
  whole.style.left = `${best.c.left}px`;
  whole.style.width = `${best.c.width}px`;
  whole.style.top = `${best.y}px`;
  whole.classList.toggle("apart", best.y > top0 + 1 || best.c !== options[0]);  // (not hanging from the line)
}
// the cards moved (a move, a deal, a new window size): the box finds its place again
document.addEventListener("yukon:chrome", () => { if (!whole.hidden) place(); });
function said() { saidAt = performance.now(); showWhole(); }
new MutationObserver(said).observe(message, { childList: true, characterData: true, subtree: true });
// a message can be cut short after it was said, when the verdict or a button comes beside it: while it is
// new, the box comes for the rest of its time
new ResizeObserver(() => {
  const left = WHOLE_MS - (performance.now() - saidAt);
  if (!whole.hidden) showWhole(null);
  else if (left > 0 && isCut()) showWhole(left);
  else message.classList.toggle("cut", isCut());
}).observe(message);
// a bar that comes over the status line after the message was said hides the box too
const barCame = new MutationObserver(() => { if (!$("demo-bar").hidden || !bar.hidden) whole.hidden = true; });
for (const b of [bar, $("demo-bar")]) barCame.observe(b, { attributes: true, attributeFilter: ["hidden"] });
message.addEventListener("click", () => showWhole());
window.addEventListener("resize", () => { fitReplayText(); if (!whole.hidden) showWhole(null); });
