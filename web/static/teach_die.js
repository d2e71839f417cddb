// A box's own colour die taught from the PIN holder's phone (web/die_teach.py), once its
// board is taught: while the table is set up for a game whose box has one (index.html's
// #die-teach lists each such game's faces by name), the die is laid alone beside the board
// with each colour up in turn and looked at; the die as the camera saw it shows beside its
// colour, and Save adds the faces to the box in the table's folder. Never on the screen
// beside the table (the page does not load this script there). Uses the shell's `t`, `h` and
// `pin`, and teach.js's `boardGame`, `lookAtFace`, `saveFaces` and `whenTheGameMayChange`
// (and its "board-saved" event).
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
  const learnt = await lookAtFace("/api/setup/die", { face },
    `/api/setup/die/${encodeURIComponent(face)}.jpg`, dieUrls, face, "die-said", t("die_looking"));
  if (learnt) drawDieFaces(learnt);
}

// The step is shown while the table is set up for a game whose box has a colour die.
function showDieStep() {
  const step = document.getElementById("die-teach");
  const shown = Boolean(pin) && dieFaces().length > 0;
  if (shown && step.hidden) drawDieFaces(Object.keys(dieUrls));
  step.hidden = !shown;
}

// A board taught anew forgets the die's faces learnt beside the old one, as the server does.
function forgetDieFaces() {
  for (const face of Object.keys(dieUrls)) {
    URL.revokeObjectURL(dieUrls[face]);
    delete dieUrls[face];
  }
  for (const id of ["die-said", "die-saved"]) {
    const line = document.getElementById(id);
    line.textContent = "";
    line.className = "";
  }
  drawDieFaces([]);
}

function setupDieStep() {
  document.addEventListener("board-saved", forgetDieFaces);
  document.getElementById("die-save").addEventListener("click",
    () => saveFaces("/api/setup/die/save", "die-saved"));
  whenTheGameMayChange(showDieStep);
}

document.addEventListener("DOMContentLoaded", setupDieStep);
