// The private advisor: one player's phone. The player picks who they are and taps their
// hand; the hand is kept in this tab's sessionStorage and leaves the phone only in the body
// of POST /api/advise, which answers and forgets it. The page follows the table live
// (/api/events, as the table's page does) and asks again whenever the table's version
// changes, so the advice is always for the table as it is now. Every number shown is the
// server's (web/api.py, the games' advise.py): this script only draws.
//
// This script is what every game's advisor shares: the seats, the hand and its buttons,
// asking, the refusals, whose turn it is. The advice itself is drawn by the game's own
// script (its package's page folder's advisor.js, served at /games/<id>/advisor.js after
// this one, where the game has a hidden hand to advise on), which sets
// `window.gameAdvisor = { cardLabel(code), draw(), seated(player) }` when it runs:
// `cardLabel` says a card of the hand in words (as the advice names it, never by its code),
// `draw` returns the elements of the advice in `answer` (the latest), after the line saying
// whose turn it is, and `seated`, if given, whether a player of the view holds a hand to
// advise on (else every one does).
// It may use this script's `T`, `say(key, params)`, `el(tag, text, className)`, `answer`,
// `cardLabel(code)`, `cardsLabel(codes)` and `bestLine(label, reason, tied)`.
"use strict";

const LANG = document.body.dataset.lang;
const T = JSON.parse(document.body.dataset.text);
const STORE = window.sessionStorage;
const $ = (id) => document.getElementById(id);

let view = null; // the table's latest view (/api/state, /api/events)
let answer = null; // the latest advice
let asking = false; // a question is on its way
let askAgain = false; // the table or the hand changed while it was
let retryTimer = null; // after a 429: ask again once the wait is over
// The game's drawing of its advice (set once every script has run): none where the game
// has no hidden hand, whose page says so rather than advise.
const EVERY_PLAYER = () => true;
let advisor = { cardLabel: (code) => code, draw: () => [], seated: EVERY_PLAYER };

// --- words ------------------------------------------------------------------------------

function say(key, params = {}) {
  const one = params.n === 1 && `${key}_one` in T ? `${key}_one` : key;
  return T[one].replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// --- what this phone keeps ----------------------------------------------------------------

function kept(name, fallback) {
  try {
    const value = JSON.parse(STORE.getItem(`advisor.${name}`));
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

function keep(name, value) {
  STORE.setItem(`advisor.${name}`, JSON.stringify(value));
}

function hand() {
  const held = kept("hand", []);
  return Array.isArray(held) ? held.filter((code) => typeof code === "string") : [];
}

function setHand(held) {
  keep("hand", held);
  drawHand();
  ask();
}

// A new game (another game, another number) starts with an empty hand.
function sameGame() {
  const game = `${view.game_kind}:${JSON.stringify(players().map((p) => p.name))}`;
  if (kept("game", null) !== game) {
    keep("game", game);
    keep("hand", []);
  }
}

// --- the table ------------------------------------------------------------------------------

function players() {
  return view && Array.isArray(view.players) ? view.players : [];
}

// The players who hold a hand to advise on (the game says: every one, unless its drawing
// of the advice says otherwise).
function people() {
  return players().filter((p) => advisor.seated(p));
}

function onView(next) {
  // Another game at the table than the one this page's scripts and words are of: the page
  // reloads, which then brings that game's.
  if (next && next.game_kind && next.game_kind !== document.body.dataset.game) {
    location.reload();
    return;
  }
  view = next;
  const noGame = !view || view.game === null || view.game === undefined;
  $("no-game").hidden = !noGame;
  if (noGame) {
    for (const id of ["pick", "hand-section", "advice", "no-hidden-hand"]) $(id).hidden = true;
    return;
  }
  sameGame();
  drawSeats();
  const same = answer && answer.version === view.version && answer.boot === view.boot;
  if (!same || answer.game_kind !== view.game_kind) ask();
}

// This phone's seat, where the table's page joined it (web/static/seats.js keeps it in
// localStorage): the advisor knows who its player is, and asks for no one else.
function ownSeat() {
  try {
    const seat = JSON.parse(localStorage.getItem("caboose.seat"));
    return seat && typeof seat.token === "string" ? seat : null;
  } catch {
    return null;
  }
}

function drawSeats() {
  const select = $("seat");
  const seats = people();
  const own = ownSeat();
  const mine = own && seats.find((p) => p.seat === own.seat && p.name === own.name);
  let chosen = mine ? mine.seat : kept("seat", null);
  if (!seats.some((p) => p.seat === chosen)) chosen = seats.length ? seats[0].seat : null;
  select.disabled = Boolean(mine);
  keep("seat", chosen);
  const wanted = seats.map((p) => `${p.seat}:${p.name}`).join("|");
  if (select.dataset.seats !== wanted) {
    select.replaceChildren(...seats.map((p) => {
      const option = el("option", p.name);
      option.value = String(p.seat);
      return option;
    }));
    select.dataset.seats = wanted;
  }
  select.value = String(chosen);
  // a game with no hidden hand has no one to pick (drawAdvice says so): a view arriving
  // after its answer must not bring the choice back
  const none = answer && answer.no_hidden_hand && answer.game_kind === view.game_kind;
  $("pick").hidden = seats.length === 0 || Boolean(none);
}

// --- asking ---------------------------------------------------------------------------------

async function ask() {
  if (!view || view.game === null || kept("seat", null) === null) return;
  if (asking) {
    askAgain = true;
    return;
  }
  asking = true;
  askAgain = false;
  document.body.classList.add("asking");
  try {
    const response = await fetch(`/api/advise?lang=${LANG}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: kept("seat", null), hand: hand(), lang: LANG }),
      cache: "no-store",
    });
    const body = await response.json();
    if (response.ok) {
      answer = body;
      showError(null);
      drawAdvice();
    } else {
      showError(body.error && body.error.message);
      $("advice").hidden = true;
      $("hand-section").hidden = false; // the hand stays in sight, to be put right
      drawHand();
      if (response.status === 429 && retryTimer === null) {
        const wait = Number(response.headers.get("Retry-After")) || 1;
        retryTimer = setTimeout(() => { retryTimer = null; ask(); }, wait * 1000);
      }
    }
  } catch {
    showError(say("error_request"));
  } finally {
    asking = false;
    document.body.classList.remove("asking");
    if (askAgain) ask();
  }
}

// --- the hand and its buttons ---------------------------------------------------------------

// How a card is said: in words, as the game's advice names it, never by its code; several
// joined by commas.
function cardLabel(code) {
  return advisor.cardLabel(code);
}

function cardsLabel(codes) {
  return codes.map(cardLabel).join(", ");
}

function cardButton(code, onTap, className) {
  const button = el("button", cardLabel(code), className);
  button.type = "button";
  button.dataset.code = code;
  button.addEventListener("click", onTap);
  return button;
}

function drawHand() {
  const held = hand();
  $("hand").replaceChildren(...held.map((code, index) => cardButton(code, () => {
    const left = hand();
    left.splice(index, 1);
    setHand(left);
  }, "held")));
}

function drawButtons() {
  const groups = answer.cards || [];
  const box = $("buttons");
  const wanted = JSON.stringify(groups);
  if (box.dataset.cards === wanted) return;
  box.dataset.cards = wanted;
  box.replaceChildren();
  // "Tap your cards" only where there are cards to tap.
  $("tap-hint").hidden = !groups.some(({ codes }) => codes.length);
  for (const { group, codes } of groups) {
    const part = el("div", undefined, `group ${group}`);
    part.append(el("h3", T[group] || group));
    const row = el("div", undefined, "cards");
    for (const code of codes) row.append(cardButton(code, () => setHand([...hand(), code]), "add"));
    part.append(row);
    box.append(part);
  }
}

// --- the advice -----------------------------------------------------------------------------

function drawAdvice() {
  const box = $("advice");
  $("no-hidden-hand").hidden = !answer.no_hidden_hand;
  $("hand-section").hidden = Boolean(answer.no_hidden_hand);
  if (answer.no_hidden_hand) {
    $("pick").hidden = true;
    box.hidden = true;
    return;
  }
  drawButtons();
  drawHand();
  const parts = [el("p", answer.to_move ? say("your_turn") : say("not_your_turn", { mover: answer.mover }), "turn")];
  parts.push(...advisor.draw());
  box.replaceChildren(...parts);
  box.hidden = false;
}

function bestLine(label, reason, tied) {
  const line = el("p", undefined, "best-line");
  line.append(el("strong", `${T.best}: ${label}`), el("span", ` — ${T[`reason_${reason}`] || reason}`));
  if (tied && tied.length) line.append(el("span", ` (${say("tied", { plays: tied.join(", ") })})`, "tied"));
  return line;
}

// --- wiring ---------------------------------------------------------------------------------

// After every deferred script, the game's included: it has set window.gameAdvisor by then.
function setup() {
  if (window.gameAdvisor) advisor = { seated: EVERY_PLAYER, ...window.gameAdvisor };
  $("seat").addEventListener("change", (event) => {
    keep("seat", Number(event.target.value));
    ask();
  });
  $("clear").addEventListener("click", () => setHand([]));

  fetch(`/api/state?lang=${LANG}`)
    .then((response) => response.json())
    .then(onView)
    .catch(() => showError(say("error_request")));

  const source = new EventSource(`/api/events?lang=${LANG}`);
  source.addEventListener("state", (event) => onView(JSON.parse(event.data)));
}

document.addEventListener("DOMContentLoaded", setup);
