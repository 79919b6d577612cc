/* The status line: a message for the player, and one button for the way out of a dead end. */
import { $ } from "./store.js";

let sayTimer = 0;
export function say(text, isError = false, keep = false) {
  const el = $("message");
  el.textContent = text;
  el.title = text;
  el.classList.toggle("error", !!isError);
  clearTimeout(sayTimer);
  if (!keep && text) sayTimer = setTimeout(() => { el.textContent = ""; el.title = ""; el.classList.remove("error"); }, isError ? 6000 : 4000);
}
// one button in the status line for the way out of a dead end
export function offer(label, fn) {
  const b = $("status-action");
  if (!label) { b.hidden = true; b.onclick = null; return; }
  b.textContent = label;
  b.hidden = false;
  b.onclick = () => { offer(null); fn(); };
}
