/* The game's clock as the page shows it: it runs on between the server's answers, and pauses while the
page is hidden; while it runs, the page beats to the server that it is still open. */
import { goOffline } from "./offline.js";
import { api } from "./server.js";
import { $, S } from "./store.js";
import { fmtTime } from "./words.js";

export function shownElapsed() {
  if (!S.state) return 0;
  let s = S.state.elapsed;
  if (S.state.clock_running && !S.offline && !document.hidden) s += (performance.now() - S.receivedAt) / 1000;
  return s;
}
export function tick() {
  if (S.state) $("timer").textContent = fmtTime(shownElapsed());
}
setInterval(tick, 500);

// the server's clock stops while the page is hidden (a game left in a background tab does not run on)
export function setClock(running) {
  if (!S.state || S.state.result !== null) return;
  const url = `/api/games/${S.state.id}/clock`;
  if (!running) {
    S.state.elapsed = shownElapsed();
    S.receivedAt = performance.now();
    S.state.clock_running = false;
    const blob = new Blob([JSON.stringify({ running: false })], { type: "application/json" });
    if (!(navigator.sendBeacon && navigator.sendBeacon(url, blob))) api("POST", url, { running: false }).catch(() => {});
    return;
  }
  api("POST", url, { running: true }).then((c) => {
    S.state.elapsed = c.elapsed; S.state.clock_running = c.clock_running; S.receivedAt = performance.now(); tick();
  }).catch((err) => { if (err.offline) goOffline(); });
}
document.addEventListener("visibilitychange", () => setClock(!document.hidden));

// a heartbeat while the clock runs: the server counts no time after the page's last sign of life (a killed
// browser sends no pause, and its clock ran on until the page came back). Every 5 s: the server's
// HEARTBEAT_SECONDS; it counts a page silent for 12 s as gone.
const HEARTBEAT_MS = 5000;
setInterval(() => {
  if (!S.state || !S.state.clock_running || S.state.result !== null || S.offline || document.hidden) return;
  const { id } = S.state, sent = S.receivedAt;
  api("POST", `/api/games/${id}/clock`, { running: true }).then((c) => {
    // (an answer of the game since, a move or a pause, is newer than this one: it stands)
    if (!S.state || S.state.id !== id || S.receivedAt !== sent) return;
    S.state.elapsed = c.elapsed; S.state.clock_running = c.clock_running; S.receivedAt = performance.now();
  }).catch((err) => { if (err.offline) goOffline(); });
}, HEARTBEAT_MS);
