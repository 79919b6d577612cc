/* The server not answering (retry until it does), and a game played on or ended in another tab. */
import { setClock, shownElapsed } from "./clock.js";
import { fillVariants } from "./dialogs.js";
import { start } from "./main.js";
import { accept } from "./play.js";
import { render } from "./render.js";
import { api, failed } from "./server.js";
import { offer, say } from "./status.js";
import { S } from "./store.js";

let retryTimer = 0;
export function goOffline() {
  if (S.state && S.state.clock_running) { S.state.elapsed = shownElapsed(); S.state.clock_running = false; }
  if (!S.offline) {
    S.offline = true;
    say("The server is not answering: trying again…", true, true);
    offer("Retry now", retry);
  }
  clearTimeout(retryTimer);
  retryTimer = setTimeout(retry, 2000);
  if (S.state) render();
}
async function retry() {
  clearTimeout(retryTimer);
  try {
    if (!S.variants) { S.variants = await api("GET", "/api/variants"); fillVariants(); }
    if (S.state) accept(await api("GET", `/api/games/${S.state.id}`));
    else await start();
  } catch (err) {
    if (err.offline) { retryTimer = setTimeout(retry, 3000); return; }
    if (err.status === 404) { S.state = null; await start(); return; }
    failed(err);
  }
}
export function backOnline() {
  S.offline = false;
  clearTimeout(retryTimer);
  offer(null);
  say("The server answers again.");
  if (S.state && S.state.player_moved && S.state.result === null && !document.hidden) setClock(true);
}
// the game was played on elsewhere (another tab): show it as it is now, the move not played
export async function caughtUp() {
  try { accept(await api("GET", `/api/games/${S.state.id}`)); } catch (err) { if (err.offline) goOffline(); return; }
  say("The game moved on in another tab or window: this is where it is now (your move was not played).", true);
}
export async function gameEnded() {
  try { accept(await api("GET", `/api/games/${S.state.id}`), { elsewhere: true }); } catch (err) { if (err.offline) goOffline(); }
}
