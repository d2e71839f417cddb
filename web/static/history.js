// Every game played at this table (issue 31): the history, newest first, each game with
// when it ended, the game, its option and variant in words, the players' points, the
// winners, how long it took and whether it was finished or abandoned; one of them watched
// turn by turn (the shell's record watcher), its record exported, or deleted with the PIN.
// Then the players' standings per game, a small SVG chart of one player's points game after
// game (drawn here, no library), and renaming or merging players with the PIN. On the
// screen beside the table (KIOSK), only the last results, between games.
//
// A shell script beside shell.js: it uses the shell's `t`, `h`, `s`, `bdi`, `pin`,
// `refusal`, `showError`, `watching`, `watchRecord` and `stopWatching`, and follows the
// table through the shell's "table-drawn" event; the history is asked again when a game
// ends or begins, not at every move.
"use strict";

const HISTORY_COUNT = KIOSK ? 4 : 10;
const CHART_GAMES = 30; // the chart's most recent games
let historyNext = null; // the `before` of the next page, null when none follows
let historyFor = null; // the table's state the history was last asked for
let historyPlaying = false; // a game in progress on the table (the kiosk hides the history)
let historyGames = []; // the games listed, as the history answered them

function ended(iso) {
  return new Date(iso).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });
}

function minutes(started, finished) {
  return Math.max(1, Math.round((Date.parse(finished) - Date.parse(started)) / 60000));
}

// The game, its option and its variant in words, each once: a game whose name already
// says its option (a family of editions, an edition named as its game) by its option's.
function gameNamed(g) {
  const game = g.game_name.includes(g.option_name) ? null : g.game_name;
  return [game, g.option_name, g.variant_name].filter(Boolean).join(" · ");
}

function points(g, n) {
  return t(g.fewest_win ? "history_penalty" : "history_points", { n });
}

// On the kiosk, a result in a line or two, read from across the room: the game, when, and
// each player's points (the winners starred), their unit said by the game's own screen.
function kioskItem(g) {
  const seats = g.players.map((p, seat) => {
    const won = g.winners.includes(seat);
    return h(won ? "strong" : "span", {}, won ? "★ " : "", bdi(p.name), ` ${g.scores[seat]}`);
  });
  return h("li", { class: "history-game" }, h("strong", {}, gameNamed(g)), " ",
    h("span", { class: "history-when" }, ended(g.finished)), ": ",
    seats.flatMap((seat, i) => (i ? [" · ", seat] : [seat])));
}

function historyItem(g) {
  if (KIOSK) return kioskItem(g);
  const winners = g.winner_names.length
    ? t("history_won", { n: g.winner_names.length, names: g.winner_names.join(", ") })
    : t("history_no_winner");
  const tools = h("div", { class: "history-tools" },
    h("button", { type: "button", class: "history-watch", onclick: () => watchGame(g.id, g.game) },
      t("history_watch")),
    h("a", { href: `/api/history/${g.id}/record`, download: "" }, t("history_export")),
    h("button", { type: "button", class: "history-delete", onclick: () => deleteGame(g.id) },
      t("history_delete")));
  return h("li", { class: "history-game", "data-id": g.id },
    h("div", { class: "history-head" }, h("strong", {}, gameNamed(g)), " ",
      h("span", { class: "history-when" }, ended(g.finished))),
    h("ul", { class: "history-scores" }, g.players.map((p, seat) =>
      h("li", { class: g.winners.includes(seat) ? "won" : "" },
        bdi(p.name), `: ${points(g, g.scores[seat])}`))),
    h("div", { class: "history-how" }, g.over ? winners : t("history_left"), " · ",
      g.over ? t("history_over") : null, g.over ? " · " : null,
      t("history_minutes", { n: minutes(g.started, g.finished) }), " · ",
      t("history_turns", { n: g.turns })),
    tools);
}

async function loadHistory(more = false) {
  const before = more && historyNext !== null ? `&before=${historyNext}` : "";
  let answer;
  try {
    answer = await (await fetch(`/api/history?count=${HISTORY_COUNT}&lang=${LANG}${before}`)).json();
  } catch {
    return; // the table restarts: the next state asks again
  }
  const list = document.getElementById("history");
  historyGames = more ? [...historyGames, ...answer.games] : answer.games;
  const items = answer.games.map(historyItem);
  if (more) list.append(...items);
  else list.replaceChildren(...items);
  historyNext = answer.next;
  document.getElementById("history-empty").hidden = list.children.length > 0;
  const older = document.getElementById("history-more");
  if (older) older.hidden = historyNext === null;
  if (KIOSK) {
    showKioskHistory();
    if (view) fitKiosk();
  }
}

// On the kiosk, the last results between games only (none in progress), drawn whole again
// each time, then fitted to the screen with the rest: the shell cuts them before the log,
// the oldest first, down to none (the section then hidden).
function showKioskHistory() {
  document.getElementById("history").replaceChildren(...historyGames.map(historyItem));
  document.getElementById("history-section").hidden = historyPlaying || !historyGames.length;
}

// A game of the history watched turn by turn. Only its own game's page draws its record:
// a game of another kind than this page's opens that game's page (`/?watch=ID`, which the
// server draws with it), and that page watches it at once (setupHistory).
async function watchGame(id, kind) {
  if (kind !== document.body.dataset.game) {
    location.assign(`/?watch=${id}`);
    return;
  }
  const answer = await fetch(`/api/history/${id}?lang=${LANG}`);
  const game = await answer.json();
  if (!answer.ok) {
    if (watching && !watching.record) stopWatching();  // opened to watch it: the table again
    showError(refusal(game.error || {}));
    return;
  }
  watchRecord(game.record);
  window.scrollTo(0, 0);
}

// A change to the history with the PIN (DELETE, or a POST for the players): true when
// taken, else the refusal said in a toast.
async function changeHistory(method, path, body) {
  const headers = { "X-Table-Pin": pin };
  if (body) headers["Content-Type"] = "application/json";
  let answer, data;
  try {
    answer = await fetch(`${path}?lang=${LANG}`, { method, headers,
      body: body ? JSON.stringify(body) : undefined });
    data = await answer.json();
  } catch {
    showError(t("no_answer"));
    return false;
  }
  if (!answer.ok) {
    showError(refusal(data.error || {}));
    return false;
  }
  showError("");
  loadHistory();
  loadPlayers();
  return true;
}

function deleteGame(id) {
  if (window.confirm(t("history_delete_confirm", { n: id }))) {
    changeHistory("DELETE", `/api/history/${id}`);
  }
}

// --- the players --------------------------------------------------------------------------

async function loadPlayers() {
  if (KIOSK) return;
  let answer;
  try {
    answer = await (await fetch(`/api/players?lang=${LANG}`)).json();
  } catch {
    return;
  }
  drawStandings(answer.standings);
  const options = () => answer.players.map((p) => h("option", { value: p.id, dir: "auto" }, p.name));
  // each list keeps the player chosen in it while that player is still known: the lists
  // are drawn again whenever the history changes (on any phone), and a rename or a merge
  // must not fall on another player than the one chosen
  for (const id of ["chart-player", "rename-player", "merge-player", "merge-into"]) {
    const list = document.getElementById(id);
    const chosen = list.value;
    list.replaceChildren(...options());
    if (answer.players.some((p) => String(p.id) === chosen)) list.value = chosen;
  }
  document.getElementById("chart-box").hidden = !answer.standings.length;
  document.getElementById("players-edit").hidden = !answer.players.length;
  if (answer.standings.length) drawChart();
}

// Per game, each player's games played to the end, wins, mean and best points, the most
// wins first: one line each, which a phone wraps.
function drawStandings(lines) {
  const games = [...new Set(lines.map((line) => line.game))];
  document.getElementById("standings-empty").hidden = games.length > 0;
  document.getElementById("standings").replaceChildren(...games.map((game) => {
    const rows = lines.filter((line) => line.game === game);
    const unit = t(rows[0].fewest_win ? "standings_penalty" : "standings_points");
    return h("div", { class: "standings", "data-game": game },
      h("h3", {}, `${rows[0].game_name} `, h("small", {}, unit)),
      h("ul", {}, rows.map((line) => h("li", {},
        h("strong", {}, bdi(line.name)), " ",
        [t("standings_played", { n: line.played }), t("standings_wins", { n: line.wins }),
          t("standings_average", { n: line.average.toLocaleString(LANG, { maximumFractionDigits: 1 }) }),
          t("standings_best", { n: line.best.score })].join(" · ")))));
  }));
}

// A player's points in their last games, oldest on the left: a line through them, each
// game a dot, filled where they won.
async function drawChart() {
  const id = document.getElementById("chart-player").value;
  const box = document.getElementById("chart");
  if (!id) return;
  const answer = await (await fetch(`/api/players/${id}?lang=${LANG}`)).json();
  const results = (answer.results || []).slice(-CHART_GAMES);
  if (!results.length) {
    box.replaceChildren();
    return;
  }
  const width = 320, height = 150, pad = 26;
  const scores = results.map((r) => r.score);
  const low = Math.min(...scores), high = Math.max(...scores);
  const x = (i) => pad + (results.length > 1 ? i * (width - 2 * pad) / (results.length - 1) : (width - 2 * pad) / 2);
  const y = (v) => height - pad - (high > low ? (v - low) * (height - 2 * pad) / (high - low) : (height - 2 * pad) / 2);
  const label = t("chart_label");
  box.replaceChildren(s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label,
    class: "history-chart" },
  s("title", {}, label),
  s("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
  s("text", { x: 2, y: y(high) + 4, class: "tick" }, String(high)),
  high > low ? s("text", { x: 2, y: y(low) + 4, class: "tick" }, String(low)) : null,
  s("polyline", { points: results.map((r, i) => `${x(i)},${y(r.score)}`).join(" "), class: "trend" }),
  results.map((r, i) => s("circle", { cx: x(i), cy: y(r.score), r: 4.5, class: r.won ? "won" : "lost" },
    s("title", {}, `${ended(r.finished)}: ${t(r.fewest_win ? "history_penalty" : "history_points", { n: r.score })}`)))));
}

function setupHistory() {
  document.addEventListener("table-drawn", (event) => {
    const { view: v, playing, replay } = event.detail;
    if (replay) return;
    historyPlaying = playing && !(v && v.over);
    const state = `${playing}|${Boolean(v && v.over)}`;
    if (KIOSK) showKioskHistory();
    if (state === historyFor) return;
    historyFor = state; // a game ended or began: the history changed
    loadHistory();
    loadPlayers();
  });
  if (KIOSK) return;
  const asked = new URLSearchParams(location.search).get("watch");
  if (asked) {
    // Opened to watch a game of the history: the table's live view (of another game,
    // maybe) waits meanwhile, and the address drops `watch`, so that a reload, or the live
    // view of another game once the watching stops, shows the table again.
    const url = new URL(location.href);
    url.searchParams.delete("watch");
    window.history.replaceState(null, "", url);
    watching = { record: null, wanted: 0, total: 0 };
    watchGame(asked, document.body.dataset.game);
  }
  document.getElementById("history-more").addEventListener("click", () => loadHistory(true));
  document.getElementById("chart-player").addEventListener("change", drawChart);
  document.getElementById("rename-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = document.getElementById("rename-name");
    const player = document.getElementById("rename-player").value;
    if (await changeHistory("POST", `/api/players/${player}/rename`, { name: name.value })) name.value = "";
  });
  document.getElementById("merge-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const player = document.getElementById("merge-player");
    const into = document.getElementById("merge-into");
    const named = (select) => select.options[select.selectedIndex].text;
    if (!window.confirm(t("player_merge_confirm", { name: named(player), into: named(into) }))) return;
    changeHistory("POST", `/api/players/${player.value}/merge`, { into: Number(into.value) });
  });
}

document.addEventListener("DOMContentLoaded", setupHistory);
