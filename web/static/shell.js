// The page's shell: what every game's page shares. It keeps the table's latest view, talks
// to the table (/api/state, the Server-Sent Events of /api/events and their reconnection,
// the POSTs with the PIN), says refusals in a toast, and runs the header, the start form,
// importing, exporting and watching a record turn by turn, and the game log. No rules live
// here, and nothing of one game: the game's own script (its package's page folder, served at
// /games/<id>/<id>.js after this one) draws the table, the move, the piles and the ranking,
// and says what its buttons post.
//
// The contract, both ways (plain scripts sharing the page's global scope, no build step):
// - the game's script sets `window.gamePage = { draw(view, replay), forget() }` when it runs;
//   `draw` draws a view (the table's, or with `replay` true a record's frame being watched,
//   when nothing may be posted) into its own elements (its fragment, table.html) and into
//   the shell's #session panel, and returns whether the view holds a game to show (false:
//   the shell opens the start form and hides the log and the export link); `forget` drops
//   what a player was choosing, when a new game is started from this page;
// - the game's script may use the shell's `t(key, params)` (a word of the page), `said(x)`
//   (something the camera or the referee says, `{key, params, text}`), `h` and `s`
//   (an HTML or SVG element), `bdi(name)` and `isolateNames(text)` (players' names in their
//   own direction), `send(path, body)` (a POST with the PIN, a game's command to
//   `/api/command/<name>`: the answer, already drawn;
//   `{needsConfirm}` when the table asks to confirm; null when refused, said in a toast),
//   `heldHand(view)` (the mover's hidden hand this phone was shown for the move the view
//   awaits, else null: the view holds none), `revealHand()` (asks for it, with the PIN,
//   after its player's tap; never on the screen beside the table), `hideHand()` and
//   `handControls(name, held)` (the buttons that show and hide it),
//   `draw(view, replay)` (draw again after a local choice), and read `view` (the latest
//   view) and `pin` (the PIN this phone holds, "" if none);
// - the game's script reads `KIOSK`: true on the screen beside the table (`?view=table`),
//   where it draws no control at all (nothing to tap, type or choose: nobody touches that
//   screen) but what the table shows everyone, in large type; a list that may grow long
//   (newest first) carries `data-kiosk-cut` (its rank: 1 is cut first), and the shell
//   drops its last items until the screen holds everything without scrolling (and hides
//   what carries `data-kiosk-spare` before any list loses its last item).
"use strict";

const TEXT = JSON.parse(document.body.dataset.text);
const LANG = document.body.dataset.lang;
const SVG_NS = "http://www.w3.org/2000/svg";
// Where a phone keeps the table's PIN: the companion's name, kept so that no phone loses it.
const PIN_KEY = "caboose-pin";

let view = null; // the table's latest view
let pin = localStorage.getItem(PIN_KEY) || "";
// {record, wanted, total, timer} while a record is replayed; wanted is the turn last asked for
// (once its answer is drawn, the turn shown)
let watching = null;
let nameFinder = null; // the players' names of the view being drawn, to isolate them

// The kiosk view: the same page and live stream on a TV beside the table, read from two
// metres by a family. It cannot scroll and nobody taps it, so it shows no control, and
// nothing smaller than this share of the screen's height (24 px at 1080p) in text. The
// page route marks it (<html class="kiosk">), so its first frame is already the kiosk's.
const KIOSK = document.documentElement.classList.contains("kiosk");
const KIOSK_MIN_TEXT = 0.023;
const KIOSK_LOG_LINES = 12;

// A word whose count changes it has a `_one` form, said when the count `n` is 1.
function t(key, params = {}) {
  let text = (params.n === 1 && TEXT[`${key}_one`]) || TEXT[key] || key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

// Something the camera or the referee says (`{key, params, text}`): its `said` when the game
// words it itself (naming its pieces in words), else in the page's words when they have it
// as `session_<key>` or `refusal_<key>`, else its English.
function said(x) {
  if (x.said) return x.said;
  const params = { ...x.params, message: x.text };
  for (const key of [`session_${x.key}`, `refusal_${x.key}`]) {
    if (t(key) !== key) return t(key, params);
  }
  return x.text;
}

// A player's name in its own direction: an Arabic or Hebrew name must not carry the
// numbers and colons around it into its right-to-left run (the status line, the log).
function bdi(name) {
  return h("bdi", {}, name);
}

function learnNames(players) {
  const names = [...new Set((players || []).map((p) => p.name).filter(Boolean))];
  names.sort((a, b) => b.length - a.length);  // the longest first: "Ana" inside "Ana Mari"
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  nameFinder = names.length
    ? new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(${escaped.join("|")})(?![\\p{L}\\p{M}\\p{N}])`, "u")
    : null;
}

// A sentence made elsewhere (a word of the page, a log line, the referee at the table) as
// nodes, with every player's name in it isolated.
function isolateNames(text) {
  if (!nameFinder || !text) return text;
  return text.split(nameFinder).map((part, i) => (i % 2 ? bdi(part) : part)).filter((p) => p !== "");
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") el.addEventListener("click", v);
    else if (k === "class") el.className = v;
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) el.append(child);
  }
  return el;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") el.addEventListener("click", v);
    else if (v !== null && v !== undefined) el.setAttribute(k, v);
  }
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

// --- talking to the table -----------------------------------------------------------------

// A refused tap is said in a toast fixed at the top of the viewport (index.html's #error,
// aria-live), so a phone scrolled far down the page sees it without it covering the button
// just tapped (Deal, at the bottom of the form); it stays a few seconds, or until tapped.
const TOAST_MS = 6000;
let toastTimer = null;

// A refusal of the table in the page's language when the page's words know its key (they
// are the game's `refusal_<key>`), else in the table's English.
function refusal(error) {
  if (error.said) return error.said;  // the game said it, the pieces it names in words
  const key = `refusal_${error.key}`;
  if (!error.key || !TEXT[key]) return error.message;
  return t(key, { ...error.params, message: error.message });
}

function showError(message) {
  const box = document.getElementById("error");
  clearTimeout(toastTimer);
  box.textContent = message;
  box.hidden = !message;
  if (message) toastTimer = setTimeout(() => { box.hidden = true; }, TOAST_MS);
}

async function send(path, body = {}) {
  const headers = { "Content-Type": "application/json" };
  if (pin) headers["X-Table-Pin"] = pin;  // no PIN yet: none sent, rather than an empty one
  let response, data;
  try {
    response = await fetch(`${path}?lang=${LANG}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    data = await response.json();
  } catch {
    // No answer, or not the table's (the Wi-Fi dropped, the service restarts): the tap
    // was perhaps not taken; say so rather than nothing.
    showError(t("no_answer"));
    return null;
  }
  if (!response.ok) {
    const error = data.error || {};
    if (error.needs_confirm) return { needsConfirm: true, error };
    if (response.status === 429 && error.rule === "pin") {
      // Too many wrong tries from this phone: the stored PIN may well be right; keep it.
      pin = localStorage.getItem(PIN_KEY) || pin;
      setPinState("wait", { n: error.retry_after });
      showError(t("pin_wait", { n: error.retry_after }));
      return null;
    }
    showError(refusal(error));  // the rule's id stays in the answer's data, not the sentence
    if (error.rule === "pin") setPinState(pin ? "wrong" : "ask");
    return null;
  }
  showError("");
  if (path !== "/api/replay" && path !== "/api/pin") render(data);
  return data;
}

// A read that needs the PIN (the mover's hidden hand): the answer, or null when refused,
// said in a toast unless `quiet`. The screen beside the table never asks: it shows everyone.
async function ask(path, quiet = false) {
  if (KIOSK) return null;
  let response, data;
  try {
    response = await fetch(`${path}?lang=${LANG}`, { headers: pin ? { "X-Table-Pin": pin } : {},
      cache: "no-store" });
    data = await response.json();
  } catch {
    if (!quiet) showError(t("no_answer"));
    return null;
  }
  if (response.ok) return data;
  const error = data.error || {};
  if (!quiet) showError(refusal(error));
  if (error.rule === "pin") {
    setPinState(response.status === 429 ? "wait" : pin ? "wrong" : "ask", { n: error.retry_after });
  }
  return null;
}

// --- the mover's hidden hand --------------------------------------------------------------

// The view every page and the screen beside the table read holds no hidden hand: the
// mover's phone asks for it (GET /api/hand, with the PIN) when its player taps to see it,
// and drops it once the move is made (another mover or turn, or a new game), so the next
// player's turn starts hidden on every phone. `shownHand`: that answer, while it stands.
let shownHand = null;
let askingHand = false;

function sameMove(v, hand) {
  return Boolean(v && hand) && v.boot === hand.boot && v.to_move === hand.seat && v.turn === hand.turn;
}

// The hand this phone was shown for the move `v` awaits, or null; asked again, quietly,
// when the table changed within the move (a corrected turn may change what the mover holds).
function heldHand(v) {
  if (KIOSK || !sameMove(v, shownHand)) {
    shownHand = null;
    return null;
  }
  if (shownHand.version < v.version) revealHand(true);
  return shownHand;
}

// Asks for the mover's hand (`again`: to refresh the one shown) and draws it, unless the
// move was made meanwhile, or another game started.
async function revealHand(again = false) {
  if (KIOSK || askingHand) return;
  askingHand = true;
  const before = shownHand;
  // This phone's own seat's hand comes with its seat's token (web/static/seats.js).
  const own = window.seats && window.seats.holds(view);
  const hand = await (own ? window.seats.hand() : ask("/api/hand", again));
  askingHand = false;
  const stands = hand && sameMove(view, hand) && (!again || (before && before.number === hand.number));
  if (!stands && !again) return;
  shownHand = stands ? hand : null;
  draw(view, false);
}

function hideHand() {
  shownHand = null;
  draw(view, false);
}

// What the mover's phone shows of their hidden hand beside it: the button that
// shows it (and the PIN it needs), or the one that hides it again.
// A hand on its seat's own phone (web/static/seats.js) is not offered on another: said so.
function handControls(name, held) {
  if (held) return h("button", { id: "hand-hide", type: "button", onclick: hideHand }, t("hand_hide"));
  const away = window.seats && window.seats.elsewhere(name);
  if (away) return h("p", { id: "hand-elsewhere" }, isolateNames(away));
  const own = window.seats && window.seats.holds(view);
  return h("div", { id: "hand-private" }, h("p", {}, isolateNames(t("hand_private", { name }))),
    pin || own ? null : h("p", {}, h("small", {}, t("hand_needs_pin"))),
    h("button", { class: "primary", id: "hand-reveal", type: "button", onclick: () => revealHand() },
      t("hand_reveal")));
}

// --- what the camera sees ------------------------------------------------------------------

// The PIN holder's phone may open the camera's picture (GET /api/camera.jpg, with the PIN:
// a camera in a home is private). An <img> cannot send the PIN, so each picture is fetched
// and shown from an object URL; a new one is asked for once the last has come, at most
// twice a second, and only while the view is open and the page in sight (the table encodes
// a picture only when a page asks). Without a camera, or before its first frame, the view
// says so in words.
const CAMERA_EVERY_MS = 500;
let cameraOpen = false;
let cameraUrl = null;
let cameraTimer = null;
let cameraAsking = false;  // a picture is on its way: a view closed and opened again waits for it

// Shown to the PIN holder alone; the setup view (static/setup.js) is told too ("pin-state").
function showCameraButton() {
  const button = document.getElementById("camera-open");
  if (!button) return;
  button.hidden = !pin;
  if (!pin && cameraOpen) closeCamera();
  document.dispatchEvent(new CustomEvent("pin-state"));
}

function openCamera() {
  cameraOpen = true;
  document.getElementById("camera").hidden = false;
  document.getElementById("camera-open").setAttribute("aria-pressed", "true");
  if (!cameraAsking && cameraTimer === null) nextPicture();
}

function closeCamera() {
  cameraOpen = false;
  clearTimeout(cameraTimer);
  cameraTimer = null;
  document.getElementById("camera").hidden = true;
  document.getElementById("camera-open").setAttribute("aria-pressed", "false");
  showPicture(null, "");
}

// The picture (a Blob), or none and a sentence saying why.
function showPicture(blob, words) {
  const img = document.getElementById("camera-picture");
  if (cameraUrl) URL.revokeObjectURL(cameraUrl);
  cameraUrl = blob ? URL.createObjectURL(blob) : null;
  if (cameraUrl) img.src = cameraUrl;
  else img.removeAttribute("src");
  img.hidden = !cameraUrl;
  document.getElementById("camera-legend").hidden = !cameraUrl;
  const state = document.getElementById("camera-state");
  state.textContent = words;
  state.hidden = !words;
}

async function nextPicture() {
  cameraTimer = null;
  if (!cameraOpen || KIOSK) return;
  if (document.hidden) return;  // asked again when the page is back in sight
  const started = performance.now();
  if (!pin) {
    showPicture(null, t("camera_needs_pin"));
  } else {
    cameraAsking = true;
    try {
      const response = await fetch(`/api/camera.jpg?lang=${LANG}`,
        { headers: { "X-Table-Pin": pin }, cache: "no-store" });
      if (!cameraOpen) return;
      if (response.ok) {
        showPicture(await response.blob(), "");
      } else {
        const error = ((await response.json().catch(() => ({}))).error) || {};
        if (error.rule === "pin") {
          const waiting = response.status === 429;  // too many wrong PINs from this phone
          setPinState(waiting ? "wait" : "wrong", { n: error.retry_after });
          showPicture(null, waiting ? t("pin_wait", { n: error.retry_after }) : t("camera_needs_pin"));
          return;  // no more asking with a PIN the table refuses
        }
        showPicture(null, t(error.key === "camera_none" ? "camera_none" : "camera_waiting"));
      }
    } catch {
      if (!cameraOpen) return;
      showPicture(null, t("no_answer"));
    } finally {
      cameraAsking = false;
    }
  }
  if (cameraOpen && cameraTimer === null) {
    cameraTimer = setTimeout(nextPicture, Math.max(0, CAMERA_EVERY_MS - (performance.now() - started)));
  }
}

function setupCamera() {
  if (!document.getElementById("camera-open")) return;  // no camera watches this table
  document.getElementById("camera-open").addEventListener("click", () =>
    (cameraOpen ? closeCamera() : openCamera()));
  document.getElementById("camera-close").addEventListener("click", closeCamera);
  // a tap shows the picture at the camera's own size (a phone's screen shrinks the labels),
  // the place tapped in the middle; another tap fits it to the screen again
  document.getElementById("camera-picture").addEventListener("click", (event) => {
    const img = event.currentTarget;
    const box = img.getBoundingClientRect();
    const at = [(event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height];
    if (!document.getElementById("camera").classList.toggle("full")) return;
    const frame = document.getElementById("camera-frame");
    frame.scrollLeft = at[0] * img.naturalWidth - frame.clientWidth / 2;
    frame.scrollTop = at[1] * img.naturalHeight - frame.clientHeight / 2;
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && cameraOpen && cameraTimer === null && !cameraAsking) nextPicture();
  });
  showCameraButton();
}

function refresh() {
  return fetch(`/api/state?lang=${LANG}`).then((r) => r.json()).then(render).catch(() => null);
}

// The live stream. The browser's EventSource reconnects by itself after a dropped stream,
// but gives up for good on an answer other than 200 (a 503 when too many pages are open, a
// proxy's 502 while the service restarts): the page then reopens it itself, waiting twice as
// long each time (1 s up to 30 s), and fetches the state first, so it is current once back.
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30000;
let retryMs = RETRY_FIRST_MS;
let retryTimer = null;

function connect() {
  const live = document.getElementById("live");
  const source = new EventSource(`/api/events?lang=${LANG}`);
  source.addEventListener("state", (event) => render(JSON.parse(event.data)));
  source.onopen = () => {
    retryMs = RETRY_FIRST_MS;
    live.textContent = t("live");
    live.className = "badge on";
  };
  source.onerror = () => {
    live.textContent = t("offline");
    live.className = "badge off";
    if (source.readyState !== EventSource.CLOSED || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      refresh();
      connect();
    }, retryMs + Math.random() * 250);  // a little apart, when many pages were refused at once
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
}

// What the PIN field says. Only a PIN the table called wrong is forgotten.
function setPinState(state, params = {}) {
  const words = { ok: "pin_ok", wrong: "pin_wrong", wait: "pin_wait", ask: "pin_ask" };
  document.getElementById("pin-state").textContent = t(words[state], params);
  if (state === "wrong") {
    pin = "";
    localStorage.removeItem(PIN_KEY);
  }
  showCameraButton();
}

// --- drawing ------------------------------------------------------------------------------

function render(next) {
  // Events and answers may cross: keep the newest of one service run and one game.
  const same = view && next && next.boot === view.boot && next.game === view.game;
  if (!next || (same && next.version < view.version)) return;
  view = next;
  if (watching) return;
  draw(view, false);
}

// The view drawn by the game's script, then what the shell shows around it. While a record
// is watched, the live table is not drawn over it (a redraw asked by another part of the
// page, seats.js say, waits for the watching to stop). A live view of another game than the
// one whose script and markup this page loaded (its `game_kind`: a game of another kind was
// started, or the service resumed one) reloads the page, which then brings that game's.
function draw(v, replay) {
  if (!replay && watching) return;
  if (!replay && v && v.game_kind && v.game_kind !== document.body.dataset.game) {
    location.reload();
    return;
  }
  learnNames(v && v.players);
  const playing = window.gamePage.draw(v, replay);
  // What else the page draws around a view (web/static/seats.js), before the kiosk is fitted.
  document.dispatchEvent(new CustomEvent("table-drawn", { detail: { view: v, playing, replay } }));
  document.getElementById("log-section").hidden = !playing;
  if (KIOSK) {
    drawKiosk(v, playing);
    return;
  }
  document.getElementById("start-details").open = !playing;
  document.getElementById("export").hidden = !playing || replay;
  if (playing) drawLog(v);
}

// The log, newest first; before the first turn, a word that none is played yet rather than
// an empty box.
function drawLog(v) {
  document.getElementById("log").replaceChildren(...v.log.map((entry) =>
    h("li", { class: entry.correction ? "correction" : "" },
      entry.correction ? `${t("correction")}: ` : null, isolateNames(entry.text))));
  document.getElementById("log-empty").hidden = v.log.length > 0;
}

// --- the kiosk view -----------------------------------------------------------------------

// Around the game's drawing: the log (newest first, cut to what fits), or, before any
// game, a word that one is awaited; then everything made to fit the screen.
function drawKiosk(v, playing) {
  document.getElementById("kiosk-idle").hidden = playing;
  // More lines than a screen's column holds would only be measured and cut, one by one.
  if (playing) drawLog({ ...v, log: v.log.slice(0, KIOSK_LOG_LINES) });
  fitKiosk();
}

// A game's drawing (an SVG) fills its box, so its words shrink with it: each is made
// at least the smallest size the screen allows, in the drawing's own units. Then, while
// anything overflows the screen, the lists that may be cut lose their last (oldest) item,
// the lowest rank first, down to one item each; then, if still needed, the last item of a
// list of rank 1 (the log), or of a list its section has no room left for, too, and its
// section is hidden.
function fitKiosk() {
  const least = KIOSK_MIN_TEXT * window.innerHeight;
  for (const svg of document.querySelectorAll("main svg")) {
    const scale = svg.getScreenCTM() ? svg.getScreenCTM().a : 0;
    if (!scale) continue;
    for (const text of svg.querySelectorAll("text")) {
      text.style.fontSize = "";
      const size = parseFloat(getComputedStyle(text).fontSize);
      if (size * scale < least) text.style.fontSize = `${least / scale}px`;
    }
  }
  const boxes = [document.documentElement, document.querySelector("main"),
    ...document.querySelectorAll("main section, #session, [data-kiosk-cut]")];
  const overflows = () => boxes.some((box) => box.scrollHeight > box.clientHeight + 1
    || box.scrollWidth > box.clientWidth + 1);
  const lists = [...document.querySelectorAll("[data-kiosk-cut]")]
    .sort((a, b) => Number(a.dataset.kioskCut) - Number(b.dataset.kioskCut));
  // A list whose section is squeezed below its one item left would be an empty frame.
  const squeezed = (l) => {
    const section = l.closest("section");
    return section.scrollHeight > section.clientHeight + 1;
  };
  for (const keep of [1, 0]) {
    while (overflows()) {
      const list = lists.find((l) => l.children.length > keep && !l.closest("[hidden]")
        && (keep || l.dataset.kioskCut === "1" || squeezed(l)));
      if (!list) break;
      list.lastElementChild.remove();
      if (!list.children.length) list.closest("section").hidden = true;
    }
    // Before a list's last item goes, what the screen can spare (`data-kiosk-spare`: the
    // join code, web/static/seats.js) is hidden.
    for (const spare of document.querySelectorAll("[data-kiosk-spare]")) {
      if (keep && overflows()) spare.hidden = true;
    }
  }
}

// The kiosk keeps of the shell only what shows the table: no PIN, no language or advisor
// link, no start form, no records, no toast (nothing there asks for an answer).
function setupKiosk() {
  for (const id of ["pin-form", "lang", "advisor-link", "watch", "setup", "error"]) {
    document.getElementById(id)?.remove();  // the advisor's link is only where it advises
  }
  document.querySelector("main").prepend(h("section", { id: "kiosk-idle", hidden: true }, t("no_game")));
  document.getElementById("log").dataset.kioskCut = "1";
  // What a game shows under its picture goes into the picture's column, whatever the right
  // column holds beside it.
  const picture = document.querySelector(".kiosk-picture");
  for (const below of document.querySelectorAll(".kiosk-below")) picture.append(below);
  window.addEventListener("resize", () => { if (view) draw(view, false); });
  refresh();
  connect();
}

// --- starting, importing, watching --------------------------------------------------------

// The start form lists every game, then the chosen game's options (the API's `edition`
// field, whatever a game calls them) and their variants.
async function loadGames() {
  const games = await (await fetch(`/api/games?lang=${LANG}`)).json();  // named in the page's words
  const game = document.getElementById("game");
  const option = document.getElementById("edition");
  const variant = document.getElementById("variant");
  game.replaceChildren(...games.map((g) => h("option", { value: g.id }, g.name)));
  const fillVariants = () => {
    const options = games.find((g) => g.id === game.value).options;
    const chosen = options.find((o) => o.id === option.value);
    variant.replaceChildren(h("option", { value: "" }, t("none")),
      ...chosen.variants.map((v) => h("option", { value: v.id }, v.name)));
  };
  const fillOptions = () => {
    const options = games.find((g) => g.id === game.value).options;
    option.replaceChildren(...options.map((o) => h("option", { value: o.id }, o.name)));
    fillVariants();
  };
  game.addEventListener("change", fillOptions);
  option.addEventListener("change", fillVariants);
  game.value = document.body.dataset.game;  // the game whose page this is, first
  fillOptions();
}

async function readRecord() {
  const file = document.getElementById("record-file").files[0];
  if (!file) return null;
  try {
    return JSON.parse(await file.text());
  } catch {
    showError(t("record_not_json"));  // a picture, a text file: said in words, not the parser's
    return null;
  }
}

async function watchTurn(turn) {
  // Steps count from the turn last asked for, not the one last drawn: taps quicker than the
  // answers (a Pi under load) each take a step, and only the newest answer is drawn.
  const asked = watching;
  asked.wanted = turn;
  const frame = await send("/api/replay", { record: asked.record, turn });
  if (!frame || watching !== asked || asked.wanted !== turn) return;
  if (frame.game_kind !== document.body.dataset.game) {
    // Only its own game's page draws a record: this page cannot.
    stopWatching();
    showError(t("watch_other_game"));
    return;
  }
  const shown = Math.min(turn, frame.turns);
  watching.wanted = shown;
  watching.total = frame.turns;
  const slider = document.getElementById("watch-slider");
  slider.max = frame.turns;
  slider.value = shown;
  document.getElementById("watch-turn").textContent = t("watch_turn", { n: shown, total: frame.turns });
  document.getElementById("watch").hidden = false;
  draw(frame, true);
}

// A record watched turn by turn from its start: a file imported, or a game of the history
// (web/static/history.js).
function watchRecord(record) {
  watching = { record, wanted: 0, total: 0 };
  watchTurn(0);
}

function stopWatching() {
  if (watching && watching.timer) clearInterval(watching.timer);
  watching = null;
  document.getElementById("watch").hidden = true;
  if (view) draw(view, false);  // else the table's first view is drawn as it comes
}

function setup() {
  if (KIOSK) {
    setupKiosk();
    return;
  }
  document.getElementById("pin").value = pin;
  setupCamera();
  document.getElementById("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    pin = document.getElementById("pin").value.trim();
    if (await send("/api/pin")) {
      localStorage.setItem(PIN_KEY, pin);
      setPinState("ok");
    }
  });
  document.getElementById("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const names = document.getElementById("names").value.split("\n").map((n) => n.trim()).filter(Boolean);
    const body = { game: document.getElementById("game").value,
      edition: document.getElementById("edition").value, names };
    const variant = document.getElementById("variant").value;
    const seed = document.getElementById("seed").value.trim();
    if (variant) body.variant = variant;
    if (seed) body.seed = seed;
    if (view && view.game !== null && !view.over && !window.confirm(t("new_game_confirm"))) return;
    window.gamePage.forget();
    send("/api/game", body);
  });
  document.getElementById("import-continue").addEventListener("click", async () => {
    const record = await readRecord();
    if (!record) return;
    // The record's game replaces the one being played: asked first, as a new game is.
    if (view && view.game !== null && !view.over && !window.confirm(t("import_confirm"))) return;
    window.gamePage.forget();
    send("/api/import", { record });
  });
  document.getElementById("import-watch").addEventListener("click", async () => {
    const record = await readRecord();
    if (record) watchRecord(record);
  });
  document.getElementById("watch-prev").addEventListener("click", () => watchTurn(Math.max(0, watching.wanted - 1)));
  document.getElementById("watch-next").addEventListener("click", () =>
    watchTurn(watching.total ? Math.min(watching.wanted + 1, watching.total) : watching.wanted + 1)
  );
  document.getElementById("watch-slider").addEventListener("change", (e) => watchTurn(Number(e.target.value)));
  document.getElementById("watch-play").addEventListener("click", () => {
    // Replays turn by turn on its own, one turn every 1.5 s, until the end or a tap.
    if (watching.timer) {
      clearInterval(watching.timer);
      watching.timer = null;
      return;
    }
    watching.timer = setInterval(() => {
      if (!watching || watching.wanted >= watching.total) {
        if (watching) clearInterval(watching.timer);
        return;
      }
      watchTurn(watching.wanted + 1);
    }, 1500);
  });
  document.getElementById("watch-stop").addEventListener("click", stopWatching);
  loadGames();
  document.getElementById("error").addEventListener("click", () => showError(""));
  refresh();
  connect();
}

// After every deferred script, the game's included: it has set window.gamePage by then.
document.addEventListener("DOMContentLoaded", setup);
