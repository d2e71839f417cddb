// Joining from a phone: the page's address as a QR code (web/join.py), and seats on phones
// (web/seats.py). Runs after the shell (shell.js) and the game's script, and uses the
// shell's `t`, `h`, `isolateNames`, `showError`, `refusal`, `pin`, `view`, `KIOSK`, `LANG`.
//
// - The QR code of the page's address: on the screen beside the table large between games
//   (in the shell's "no game" panel) and small at the top of the log's panel during one,
//   never over the game's drawing; on a phone, in the setup section, to pass the page on.
// - A seat's phone: the PIN holder's page shows each seat's one-time code (a QR code of the
//   page's address with `#seat=CODE`); the phone that opens it trades the code for the
//   seat's token (kept in localStorage, sent as X-Seat-Token) and from then on shows that
//   seat's hand: its cards between its turns here, and on its turn the game's own drawing
//   of the hand and its odds (the shell asks this script for it: `window.seats`).
// - The PIN holder's page no longer offers the hand of a seat that has a phone: it says
//   that the hand is on that phone. A seat without one is as before (the PIN holder's
//   phone passed round).
//
// The shell tells this script each time it drew a view (the "table-drawn" event, before
// the kiosk is made to fit the screen).
"use strict";

// Where this phone keeps its seat: {token, seat, name, game}.
const SEAT_KEY = "caboose.seat";
// How often a page asks which seats have a phone (a phone joining changes no view).
const SEATS_POLL_MS = 4000;

let mySeat = keptSeat();
let seatHand = null; // this phone's seat's hand, as last asked (GET /api/seat/hand)
let seatGone = ""; // why this phone lost its seat, said until it joins again
let seatList = null; // GET /api/seats: each seat and whether a phone holds it
const invites = new Map(); // seat -> {url, qr}: the codes this page was given
let seatVersion = null; // the view's version the seat's hand was asked at

function keptSeat() {
  try {
    const seat = JSON.parse(localStorage.getItem(SEAT_KEY));
    return seat && typeof seat.token === "string" ? seat : null;
  } catch {
    return null;
  }
}

async function fetchJson(path, options = {}) {
  try {
    const response = await fetch(`${path}${path.includes("?") ? "&" : "?"}lang=${LANG}`,
      { cache: "no-store", ...options });
    return { ok: response.ok, status: response.status, data: await response.json() };
  } catch {
    return { ok: false, status: 0, data: { error: { message: t("no_answer") } } };
  }
}

// --- the page's address as a QR code ------------------------------------------------------

function joinBox(answer) {
  const box = h("section", { id: "join-box", hidden: KIOSK });
  if (!answer.url) {
    box.append(h("p", {}, answer.said));
    return box;
  }
  box.append(h("img", { id: "join-qr", src: answer.qr, alt: answer.url, width: 200, height: 200 }),
    h("div", { class: "join-words" }, h("p", { class: "join-title" }, t("join_title")),
      h("p", { class: "join-said" }, answer.said), h("p", { id: "join-url" }, answer.url)));
  return box;
}

// On the kiosk, how the box shows for the view just drawn: large under the "no game" panel
// before any game, small under the log during one (seats.css places it in the grid),
// before the shell fits the kiosk to the screen.
function placeJoin(playing) {
  const box = document.getElementById("join-box");
  if (!box) return;
  box.classList.toggle("between", !playing);
  box.hidden = false;  // the shell hides it again if the screen cannot spare its room
  box.toggleAttribute("data-kiosk-spare", playing);
}

async function loadJoin() {
  const { ok, data } = await fetchJson("/api/join");
  if (!ok) return;
  const box = joinBox(data);
  if (KIOSK) {
    document.querySelector("main").append(box);  // hidden until the next view drawn places it
    if (view) draw(view, false);
    return;
  }
  const details = h("details", { id: "join-details" }, h("summary", {}, t("join_title")), box);
  document.getElementById("setup").append(details);
}

// --- this phone's seat ----------------------------------------------------------------------

async function joinSeat(code) {
  history.replaceState(null, "", location.pathname + location.search);  // the code, used, goes
  const { ok, data } = await fetchJson("/api/seats/join", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ invite: code }) });
  if (!ok) {
    showError(refusal(data.error || {}));
    return;
  }
  mySeat = { token: data.token, seat: data.seat, name: data.name, game: data.game };
  localStorage.setItem(SEAT_KEY, JSON.stringify(mySeat));
  seatGone = "";
}

function leaveSeat(why = "") {
  localStorage.removeItem(SEAT_KEY);
  mySeat = null;
  seatHand = null;
  seatGone = why;
  drawMySeat();
}

// The seat's hand (null while the companion holds none of it to show); a token the table
// no longer knows leaves the seat, saying why.
async function askSeatHand() {
  if (!mySeat) return null;
  const { ok, status, data } = await fetchJson("/api/seat/hand",
    { headers: { "X-Seat-Token": mySeat.token } });
  if (status === 401) {
    leaveSeat((data.error || {}).message || "");
    return null;
  }
  if (!ok) return null;
  seatHand = data.shown ? { ...data.shown, boot: data.boot } : null;
  return seatHand;
}

// Whether this phone holds the seat of the player to move in `v`.
function holdsMover(v) {
  if (!mySeat || !v || !Array.isArray(v.players) || v.to_move === null || v.to_move === undefined) {
    return false;
  }
  const mover = v.players[v.to_move];
  return Boolean(mover) && mover.seat === mySeat.seat && mover.name === mySeat.name;
}

function cardsSaid(hand) {
  return h("ul", { id: "seat-cards" }, hand.map((entry) => h("li", {}, entry.said || entry.code || entry.card)));
}

// The seat's own panel, at the top of the page: whose phone this is, and between its
// turns the cards it holds (on its turn the game's drawing shows them with their odds).
function drawMySeat() {
  let box = document.getElementById("my-seat");
  if (!mySeat && !seatGone) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = h("section", { id: "my-seat", "aria-live": "polite" });
    document.querySelector("main").prepend(box);
  }
  if (!mySeat) {
    box.replaceChildren(h("p", { class: "problem" }, seatGone));
    return;
  }
  const parts = [h("h2", {}, isolateNames(t("seat_yours", { name: mySeat.name })))];
  if (holdsMover(view)) {
    parts.push(h("p", {}, isolateNames(t("your_turn_hand", { name: mySeat.name }))));
  } else if (seatHand && seatHand.hand && seatHand.hand.length) {
    parts.push(h("p", {}, t("seat_not_your_turn")), cardsSaid(seatHand.hand));
  } else {
    parts.push(h("p", {}, t(view && view.game !== null ? "seat_none" : "seat_waiting")));
  }
  parts.push(h("button", { id: "seat-leave", type: "button", onclick: () => leaveSeat() }, t("seat_leave")));
  box.replaceChildren(...parts);
}

// --- the PIN holder's seats -----------------------------------------------------------------

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (pin) headers["X-Table-Pin"] = pin;
  const { ok, data } = await fetchJson(path, { method: "POST", headers, body: JSON.stringify(body) });
  if (!ok) showError(refusal(data.error || {}));
  return ok ? data : null;
}

async function showCode(seat) {
  const code = await post("/api/seats/invite", { seat });
  if (!code) return;
  invites.set(seat, code);
  drawSeatList();
}

async function forgetPhone(seat) {
  const answer = await post("/api/seats/forget", { seat });
  if (!answer) return;
  seatList = answer;
  invites.delete(seat);
  drawSeatList();
  if (view) draw(view, false);
}

async function loadSeats() {
  const { ok, data } = await fetchJson("/api/seats");
  if (!ok) return;
  const before = JSON.stringify(seatList);
  seatList = data;
  for (const s of data.seats) if (s.phone) invites.delete(s.seat);  // a code, once used, goes
  if (JSON.stringify(seatList) !== before) {
    drawSeatList();
    // The mover's hand, if this page shows it, goes once it is on the mover's own phone.
    const mover = view && Array.isArray(view.players) ? view.players[view.to_move] : null;
    if (mover && window.seats.elsewhere(mover.name)) hideHand();
    else if (view) draw(view, false);  // a hand back on this phone is offered again
  }
}

function drawSeatList() {
  let details = document.getElementById("seats-details");
  const seats = seatList && seatList.game !== null ? seatList.seats : [];
  if (!seats.length) {
    if (details) details.hidden = true;
    return;
  }
  if (!details) {
    details = h("details", { id: "seats-details" }, h("summary", {}, t("seats_title")), h("div", { id: "seat-rows" }));
    document.getElementById("setup").append(details);
  }
  details.hidden = false;
  const rows = seats.map((s) => {
    const code = invites.get(s.seat);
    return h("div", { class: "seat-row", "data-seat": s.seat },
      h("p", {}, isolateNames(t(s.phone ? "seat_has_phone" : "seat_no_phone", { name: s.name }))),
      s.phone
        ? h("button", { type: "button", class: "seat-forget", onclick: () => forgetPhone(s.seat) },
          isolateNames(t("seat_forget", { name: s.name })))
        : h("button", { type: "button", class: "seat-code", onclick: () => showCode(s.seat) },
          isolateNames(t("seat_code", { name: s.name }))),
      code ? h("div", { class: "seat-invite" },
        h("img", { src: code.qr, alt: t("seat_code", { name: s.name }), width: 240, height: 240 }),
        h("p", {}, isolateNames(t("seat_code_for", { name: s.name })))) : null);
  });
  document.getElementById("seat-rows").replaceChildren(h("p", {}, t("seats_help")), ...rows);
}

// --- with the shell -------------------------------------------------------------------------

window.seats = {
  // Whether this phone's own seat is the mover's in `v`: its hand comes with its token.
  holds: holdsMover,
  // The mover's hand from this phone's seat (the shell's `revealHand`).
  hand: askSeatHand,
  // Where `name`'s hand is when it is on another phone than this one (not offered here),
  // in words; else null.
  elsewhere(name) {
    const held = seatList && seatList.seats.some((s) => s.phone && s.name === name);
    return held && !(mySeat && mySeat.name === name) ? t("seat_has_phone", { name }) : null;
  },
};

function onDrawn(event) {
  const { view: v, playing, replay } = event.detail;
  if (KIOSK) {
    placeJoin(playing);
    return;
  }
  if (replay) return;
  if (mySeat && v && v.version !== seatVersion) {
    seatVersion = v.version;
    askSeatHand().then(drawMySeat);
  }
  drawMySeat();
  drawSeatList();
}

async function setupSeats() {
  document.addEventListener("table-drawn", onDrawn);
  const code = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (code && !KIOSK) await joinSeat(code);
  loadJoin();
  if (KIOSK) return;
  drawMySeat();
  loadSeats();
  setInterval(loadSeats, SEATS_POLL_MS);
}

document.addEventListener("DOMContentLoaded", setupSeats);
