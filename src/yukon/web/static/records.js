/* A game's record: play on from a move, ask where it went wrong, save and open records. */
import { hideBanner } from "./banner.js";
import { ask } from "./dialogs.js";
import { accept } from "./play.js";
import { beginReplay, closeReplay, endReplay, loadReplay } from "./replay.js";
import { api, enqueue } from "./server.js";
import { say } from "./status.js";
import { $, S } from "./store.js";
import { moveNo, plural } from "./words.js";

function playFromHere() {
  const r = S.replay;
  if (!r) return;
  const c = r.cont, at = c ? c.from : r.at;
  if (r.live.result === null) {
    // (the deal's automatic plays are the deal's: play resumes after them at the earliest)
    const to = Math.max(at, r.live.dealt || 0);
    if (to === r.total) { closeReplay(); return; }
    enqueue(async () => {
      const data = await api("POST", `/api/games/${r.live.id}/undo`, { to });
      accept(data);
      say(`Back in play at move ${moveNo(to, r.live)}: Redo plays the later moves again.`);
    });
    return;
  }
  // a finished game takes no more moves: a new game from its record, cut here
  enqueue(async () => {
    const record = await api("GET", `/api/games/${r.live.id}/record`);
    record.moves = record.moves.slice(0, at).concat(c ? c.moves.slice(0, c.k) : []);
    delete record.result;
    const data = await api("POST", "/api/games/import", { record });
    hideBanner();
    accept(data, { fresh: true });
    say(`A new game from move ${record.moves.length} of the last one: play on.`);
  });
}
// what leaving a game in play does to the statistics (a game the computer played in is not counted)
export function leaving(game) {
  return game && game.computer_moves ? "it is not counted in your statistics, since the computer played in it"
    : "it counts as not won";
}
// "Where did it go wrong?": a game in play is ended first (the answer shows face-down cards)
export async function analyse() {
  const live = S.replay ? S.replay.live : S.state;
  if (!live || live.result === "won") return;
  if (live.result === null && live.status === "playing") {
    const yes = await ask({
      title: "End this game?",
      text: `Asking where it went wrong ends this game (${leaving(live)}): the answer shows ${live.unseen || "the face-down cards"}.`,
      ok: "End it and ask", cancel: "Keep playing", focus: "cancel",
    });
    if (!yes || live !== (S.replay ? S.replay.live : S.state)) return;  // (no, or the game changed meanwhile)
  }
  enqueue(async () => {
    let over = live;
    if (over.result === null) {
      over = await api("POST", `/api/games/${live.id}/resign`);
      accept(over);
    }
    say("Where did it go wrong? The solver is looking (it may take a few seconds)…", false, true);
    const a = await api("POST", `/api/games/${over.id}/analysis`);
    const cur = S.replay ? S.replay.live : S.state;
    if (!cur || cur.id !== over.id) return;
    hideBanner();
    if (S.replay) { S.state = S.replay.live; endReplay(); }
    beginReplay(cur, a);
    say(a.losing_move ? `Found it: move ${moveNo(a.losing_move, cur)} lost the game (in red below).` : "The analysis is done (below).", false);
    const at = a.losing_move ? a.losing_move - 1 : cur.move_count;
    S.replay.want = { at, k: 0 };
    await loadReplay(at);
  });
}
function exportRecord() {
  const live = S.replay ? S.replay.live : S.state;
  if (!live || live.result === null) { say("A game is saved as a record once it is over: a record shows the face-down cards.", true); return; }
  enqueue(async () => {
    const record = await api("GET", `/api/games/${live.id}/record`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1) + "\n"], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `yukon-${live.variant}-${live.seed ?? "custom"}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    say(`Saved the record as ${a.download}.`);
  });
}
function importRecord(record, name) {
  const live = S.replay ? S.replay.live : S.state;
  const body = { record };
  if (live && live.result === null) body.abandon = live.id;  // as for a new deal
  enqueue(async () => {
    let data;
    try {
      data = await api("POST", "/api/games/import", body);
    } catch (err) {
      if (err.status === 409 && body.abandon) { delete body.abandon; data = await api("POST", "/api/games/import", body); }
      else if (err.status === 400 || err.status === 413 || err.status === 422) { say(`${name}: ${err.message}`, true, true); return; }
      else throw err;
    }
    hideBanner();
    accept(data, { fresh: true });
    say(`Opened ${name}: ${plural(data.move_count, "move")} played. Play on, or Replay (P) to step through them.`);
  });
}

$("replay-analyse").addEventListener("click", analyse);
$("replay-export").addEventListener("click", exportRecord);
$("replay-play").addEventListener("click", playFromHere);
$("new-import").addEventListener("click", () => $("import-file").click());
$("import-file").addEventListener("change", async (e) => {
  const file = e.target.files && e.target.files[0];
  e.target.value = "";
  if (!file) return;
  $("dlg-new").close();
  let record;
  try { record = JSON.parse(await file.text()); } catch (err) { say(`${file.name} is not a game record: it is not JSON.`, true, true); return; }
  importRecord(record, file.name);
});
