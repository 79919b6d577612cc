/* The player's moves and the game's actions (undo, redo, restart, a new game), and applying the server's
answers. */
import { hideBanner, showBanner, showEnded, stopCascade } from "./banner.js";
import { clearHint, updateWinnable } from "./hints.js";
import { snapBack } from "./pointer.js";
import { render } from "./render.js";
import { endReplay } from "./replay.js";
import { api, enqueue } from "./server.js";
import { settings } from "./settings.js";
import { offer, say } from "./status.js";
import { S, cardEls, timings } from "./store.js";
import { dealName, describeMove, moveNo, moveText, note, parseMove, plural } from "./words.js";

// A state from the server, shown: the table drawn anew (a new game from scratch), the box at the end of a game
// shown or put away.
export function accept(data, opts = {}) {
  if (S.replay) { S.state = S.replay.live; endReplay(); }
  const isNew = !S.state || S.state.id !== data.id;
  const prevStatus = S.state && S.state.id === data.id ? S.state.status : null;
  S.state = data;
  S.receivedAt = performance.now();
  document.dispatchEvent(new CustomEvent("yukon:state", { detail: data }));  // (deals.js: the deal's difficulty)
  try { localStorage.setItem("yukon.game", data.id); } catch (e) { /* private mode */ }
  if (isNew) {
    for (const el of cardEls.values()) el.remove();
    cardEls.clear();
    S.held = null;
    S.focus = null;
    S.lastBannerFor = "";
    S.size = null;
    stopCascade();
    offer(null);
  }
  clearHint();
  render({ played: data.played, fresh: isNew && opts.fresh });
  const over = data.result !== null;
  if (!over) offer(null);  // a way out of a dead end lasts only as long as the dead end
  const justWon = data.status === "won" && prevStatus === "playing" && !opts.elsewhere;
  if (over && !justWon) {
    if (opts.elsewhere || prevStatus !== data.status) showEnded(opts.elsewhere);
  } else if (data.status !== "playing" && (prevStatus === "playing" || isNew || justWon)) showBanner();
  if (data.status === "playing" && !over) hideBanner();
  updateWinnable();
}

const keyOfPick = (pick) => `${note(pick.src)}:${pick.card}`;
export function legalFor(src, card, count) {
  return S.state.legal_moves.map(parseMove).filter((m) => m && m.src === src && m.card === card && m.count === count);
}
// the best place for a card, as the server says
export const bestFor = (pick) => S.state.best_moves[keyOfPick(pick)] || null;
export const foundationFor = (pick) => (pick.count === 1 ? S.state.foundation_moves[keyOfPick(pick)] || null : null);

// Why automatic play leaves a card that could go up, said once per card and game as the terminal game does:
// else it looks as if automatic play forgot it. The server words it (held_back_note, in a move's answer: while the
// Milligan stock lasts, or as the tableau may still need the card), the cards left for one reason in one sentence,
// in the terminal's words, as the page knows no rule; it keeps which cards it has told.
function heldNews(data) {
  const told = (settings.autoplay && data.held_back_note) || { sentences: [], cards: 0 };
  if (!told.sentences.length) return "";
  return told.sentences.map((sentence) => ` · ${sentence}`).join("") + `. A double click or tap plays ${told.cards === 1 ? "it" : "one"} up.`;
}
export const sendMove = (text, opts = {}) => enqueue(() => playMove(text, opts));
// (the move itself, for a step already in the queue: a click decided against the state the moves before it left)
export async function playMove(text, opts = {}) {
  const t0 = performance.now();
  // a move the state does not list is asked about first: the server says why it is refused as an answer,
  // not as an error (a refusal is expected here, and the console shows no error for it)
  if (S.state.result === null && !S.state.legal_moves.includes(text)) {
    const c = await api("POST", `/api/games/${S.state.id}/check`, { move: text });
    if (!c.legal) {
      const why = c.explanation || c.error;
      if (opts.refused) opts.refused(why); else say(why, true);
      return;
    }
  }
  let data;
  try {
    // at: where this page saw the game, so that a move from a page another tab has overtaken is refused
    data = await api("POST", `/api/games/${S.state.id}/moves`, { move: text, autoplay: settings.autoplay, autofinish: settings.autofinish, at: S.state.move_count });
  } catch (err) {
    if (err.status === 409 && err.data && err.data.reason) {  // refused: the server says why
      if (opts.refused) opts.refused(err.message); else say(err.message, true);
      return;
    }
    throw err;
  }
  const mv = parseMove((data.played && data.played[0]) || text);  // (the server's own text of the move, its words' key)
  accept(data);
  timings.push(performance.now() - t0);
  if (timings.length > 1000) timings.shift();
  const auto = data.played.length - 1;
  if (!opts.quiet && S.state.status === "playing") say(describeMove(mv).replace(/^./, (c) => c.toUpperCase()) + (auto > 0 ? ` (+${auto} automatic)` : "") + heldNews(data));
}
// a move the page has not checked (a drop, a key): the server plays it or says why not
export function tryMove(pick, dst, els) {
  const legal = legalFor(pick.src, pick.card, pick.count).find((m) => m.dst === dst);
  // only a single card goes to a foundation: ask for that one, and the server says it is covered
  const text = legal ? legal.text : moveText(pick.src, pick.card, dst === "F" ? 1 : pick.count, dst);
  return sendMove(text, { refused: (why) => snapBack(els || [], why) });
}
const action = (path, body, message) => enqueue(async () => {
  const data = await api("POST", `/api/games/${S.state.id}/${path}`, body);
  accept(data);
  if (message) say(message(data));
});
// (the earliest move undone is named: the later ones, automatic plays, may name cards face down again)
const undone = (d) => d.undone_first
  ? `Undone: ${describeMove(parseMove(d.undone_first))}${d.undone_count > 1 ? ` and ${plural(d.undone_count - 1, "automatic move")}` : ""}`
  : `Undone: ${plural(d.undone_count, "move")}`;
export const undo = () => S.state && S.state.can_undo && S.state.result === null && action("undo", undefined, undone);
export const redo = () => S.state && S.state.can_redo && S.state.result === null
  && action("redo", undefined, (d) => (d.played.length ? `Redone: ${describeMove(parseMove(d.played[0]))}` : "Redone"));
export const restart = () => S.state && action("restart", undefined, () => "Back to the start of the deal (Redo replays your moves)");
export const undoTo = (n) => action("undo", { to: n }, () => `Back to move ${moveNo(n)}: winnable again`);

export function newGame(params) {
  const body = {
    variant: params.variant ?? settings.variant,
    options: params.options ?? settings.options,
    autoplay: settings.autoplay, autofinish: settings.autofinish,
  };
  if (params.seed !== undefined && params.seed !== null) body.seed = params.seed;
  if (params.numbering && params.numbering !== "yukon") body.numbering = params.numbering;
  if (params.winnableOnly && body.seed === undefined && !body.numbering) body.winnable_only = true;
  if (params.deal && params.deal !== "any" && body.seed === undefined && !body.numbering) {  // (deals.js)
    const [kind, grade] = params.deal.split(":");
    delete body.winnable_only; body.deal = kind; if (grade) body.difficulty = grade;
  }
  if (S.state && S.state.result === null) body.abandon = S.state.id;  // an untouched game is dropped, a played one counted
  return enqueue(async () => {
    if (body.winnable_only || body.deal) say("Looking for a deal…", false, true);
    let data;
    try {
      data = await api("POST", "/api/games", body);
    } catch (err) {
      if (err.status === 409 && body.abandon) { delete body.abandon; data = await api("POST", "/api/games", body); } else throw err;
    }
    hideBanner();
    accept(data, { fresh: true });
    say((data.deal_note ? `Deal ${data.seed}: ${data.deal_note}` : `New game: ${data.title}, ${dealName(data)}`) + heldNews(data)
      + (params.welcome ? ` · ${WELCOME}` : ""));
  });
}
//: what a first visit is told (the terminal game opens with its own): how to move, and where the rules are
const WELCOME = "Drag a card, and the cards on it come along; a click or tap sends it to its best place. Help (?) has the rules.";
