/* The Statistics dialog. */
import { api } from "./server.js";
import { $, S } from "./store.js";
import { fmtTime } from "./words.js";

const STATS_COLUMNS = ["Game", "Played", "Won", "Win rate", "Streak", "Best streak", "Best time", "Fewest moves"];
export async function openStats() {
  const body = $("stats-body");
  body.textContent = "Loading…";
  $("dlg-stats").showModal();
  try {
    const { stats } = await api("GET", "/api/stats");
    // the figures are of finished games: a game you are playing is in them only once it is won or left, which
    // a new player cannot guess ("No games played yet" in the middle of one)
    const pending = S.state && S.state.player_moved && S.state.result === null && !S.state.computer_moves
      ? "The game in play is not in these figures yet: it counts once it is won, or left for another game." : "";
    if (!stats.length) { body.textContent = pending ? `No game finished yet. ${pending}` : "No games played yet."; return; }
    const pct = (x) => `${Math.round(x * 100)}%`;
    const rows = stats.map((s) => {
      // PySolFC's deal 42 is another deal than this program's 42: its games are a row of their own
      const opts = `empty column: ${s.options.empty_column}, foundation return: ${s.options.foundation_return ? "on" : "off"}${s.numbering === "pysolfc" ? ", PySolFC deal numbers" : ""}`;
      const cur = S.state && s.variant === S.state.variant && s.options.empty_column === S.state.rules.empty_column && s.options.foundation_return === S.state.rules.foundation_return && s.numbering === (S.state.numbering || "yukon");
      const cells = [s.played, s.won, pct(s.win_rate), s.current_streak, s.best_streak,
        s.best_time === null ? "–" : fmtTime(s.best_time), s.fewest_moves ?? "–"];
      // each cell names its column (data-label): a phone shows a game's figures as a labelled grid, not a wide row
      return `<tr class="${cur ? "current" : ""}"><td>${s.title}<span class="opts">${opts}</span></td>${cells.map((c, i) => `<td data-label="${STATS_COLUMNS[i + 1]}">${c}</td>`).join("")}</tr>`;
    }).join("");
    body.innerHTML = `<table><thead><tr>${STATS_COLUMNS.map((c) => `<th>${c}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;
    if (pending) { const note = document.createElement("p"); note.className = "stats-pending"; note.textContent = pending; body.append(note); }
  } catch (err) {
    body.textContent = err.offline ? "The server is not answering: the statistics cannot be loaded now." : `Cannot load the statistics: ${err.message}`;
  }
}
