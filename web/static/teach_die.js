// A box's own colour die taught from the PIN holder's phone (web/die_teach.py), once its
// board is taught: while the table is set up for a game whose box has one (index.html's
// #die-teach lists each such game's faces by name), the die is laid alone beside the board
// with each colour up in turn and looked at; the die as the camera saw it shows beside its
// colour, and Save adds the faces to the box in the table's folder. Never on the screen
// beside the table (the page does not load this script there). Uses the shell's `t`, `h`,
// `pin`, `refusal`, and teach.js's `boardGame` and `boardPost`.
"use strict";

const dieUrls = {};  // face -> the object URL of its picture, once learnt

function dieFaces() {
  const faces = JSON.parse(document.getElementById("die-teach").dataset.faces || "{}");
  return faces[boardGame()] || [];
}

function drawDieFaces(learnt) {
  const faces = dieFaces();
  const list = document.getElementById("die-faces");
  list.replaceChildren(...faces.map(([face, name]) => h("li", { "data-face": face },
    dieUrls[face] ? h("img", { src: dieUrls[face], alt: t("die_face", { colour: name }), class: "pips-die" })
      : h("span", { class: "pips-die empty" }, "?"),
    h("span", { class: "pips-name" }, t("die_face", { colour: name })),
    h("button", { type: "button", onclick: () => lookAtColourDie(face) }, t("die_look")))));
  document.getElementById("die-progress").textContent =
    t("die_progress", { done: learnt.length, total: faces.length });
}

async function lookAtColourDie(face) {
  const said = document.getElementById("die-said");
  said.textContent = t("die_looking");
  said.className = "";
  try {
    const [response, answer] = await boardPost("/api/setup/die", { face });
    if (!response.ok) {
      said.textContent = refusal(answer.error || {});
      said.className = "bad";
      return;
    }
    const game = encodeURIComponent(boardGame());
    const picture = await fetch(`/api/setup/die/${encodeURIComponent(face)}.jpg?game=${game}`,
      { headers: { "X-Table-Pin": pin }, cache: "no-store" });
    if (picture.ok) {
      if (dieUrls[face]) URL.revokeObjectURL(dieUrls[face]);
      dieUrls[face] = URL.createObjectURL(await picture.blob());
    }
    said.textContent = answer.said;
    drawDieFaces(answer.learnt);
  } catch {
    said.textContent = t("no_answer");
  }
}

async function saveColourDie() {
  const line = document.getElementById("die-saved");
  line.textContent = "…";
  try {
    const [response, answer] = await boardPost("/api/setup/die/save", {});
    line.textContent = response.ok ? answer.said : refusal(answer.error || {});
    line.className = response.ok ? "ok" : "bad";
  } catch {
    line.textContent = t("no_answer");
  }
}

// The step is shown while the table is set up for a game whose box has a colour die.
function showDieStep() {
  const step = document.getElementById("die-teach");
  const shown = Boolean(pin) && dieFaces().length > 0;
  if (shown && step.hidden) drawDieFaces(Object.keys(dieUrls));
  step.hidden = !shown;
}

function setupDieStep() {
  document.getElementById("die-save").addEventListener("click", saveColourDie);
  const choice = document.getElementById("game");
  if (choice) choice.addEventListener("change", showDieStep);
  document.addEventListener("pin-state", showDieStep);
  document.addEventListener("table-drawn", showDieStep);
  document.getElementById("setup-open").addEventListener("click", showDieStep);
  showDieStep();
}

document.addEventListener("DOMContentLoaded", setupDieStep);
