/* The server's JSON API: one request at a time, in order (enqueue), and what an error answer means. */
import { backOnline, caughtUp, gameEnded, goOffline } from "./offline.js";
import { render } from "./render.js";
import { say } from "./status.js";
import { S } from "./store.js";
import { learnWords } from "./words.js";

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    const err = new Error("the server is not answering");
    err.offline = true;
    throw err;
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && (data.explanation || data.error)) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.data = data || {};
    throw err;
  }
  if (S.offline) backOnline();
  learnWords(data);
  return data;
}
export function failed(err) {
  if (err.offline) { goOffline(); return; }
  if (err.status === 409 && !(err.data && err.data.reason) && S.state && /over/.test(err.message)) { gameEnded(); return; }
  if (err.status === 409 && S.state && /moved on/.test(err.message)) { caughtUp(); return; }
  say(err.message || String(err), true);
  if (S.state) render();
}
export function enqueue(fn) {
  S.queue = S.queue.then(fn).catch(failed);
  return S.queue;
}
