/* Text that does not fit its line is not lost: the replay bar's text (a phone has room there for about one
line of the analysis) gets a "More" button that opens the bar over the top of the table to show all of it,
and the status line's message, when it is cut short (a phone's two lines, or a long message beside the
"still winnable?" verdict), is shown whole in a box that drops over the table for a few seconds (a click on
the message shows it again).

Both lie over the table: nothing moves. Loaded after app.js; it uses only the hooks app.js leaves on
window.yukon (docs/web.md). */
"use strict";
(() => {
  const Y = window.yukon;
  if (!Y) return;
  const $ = (id) => document.getElementById(id);

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
  Y.onReplayShown((r) => {
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
    const m = message.getBoundingClientRect(), main = whole.offsetParent ? whole.offsetParent.getBoundingClientRect() : { left: 0, top: 0 };
    whole.style.left = `${m.left - main.left}px`;
    whole.style.top = `${m.top - main.top}px`;
    whole.style.width = `${m.width}px`;  // (as wide as the message: the verdict and buttons beside it stay in sight)
    if (ms !== null) wholeTimer = setTimeout(() => { whole.hidden = true; }, ms);
  }
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
})();
