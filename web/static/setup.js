// Setting up the table from the PIN holder's phone (web/setup.py): beside the camera's
// picture (the shell's Camera view, opened with this one: its picture is fetched there),
// what `companion check` says of the camera's latest frame, asked once a second while the
// view is open and the page in sight; the presses of the table's own buttons as the
// companion gets them; the LED, the buzzer and the speaker tried; and Save, which keeps
// what was measured in the companion's configuration file. Never on the screen beside the
// table (the page does not load this script there). Uses the shell's `t`, `h`, `pin`,
// `LANG`, `refusal`, `setPinState`, `openCamera`, `closeCamera` and `cameraOpen`.
"use strict";

const SETUP_EVERY_MS = 1000;
let setupOpen = false;
let setupTimer = null;
let setupAsking = false;
let pressesAtOpen = null;  // each button's presses when the view opened: a new one shows
let scrollPending = false;  // brought into sight once its first answer is drawn (the page settled)

function showSetupButton() {
  document.getElementById("setup-open").hidden = !pin;
  if (!pin && setupOpen) closeSetup();
}

function openSetup() {
  setupOpen = true;
  pressesAtOpen = null;
  document.getElementById("look").classList.add("setting-up");
  document.getElementById("setup-view").hidden = false;
  document.getElementById("setup-tried").hidden = true;
  document.getElementById("setup-said").replaceChildren(h("p", {}, t("setup_checking")));
  if (!cameraOpen) openCamera();
  scrollPending = true;
  if (!setupAsking && setupTimer === null) nextCheck();
}

function closeSetup() {
  setupOpen = false;
  clearTimeout(setupTimer);
  setupTimer = null;
  document.getElementById("look").classList.remove("setting-up");
  document.getElementById("setup-view").hidden = true;
  if (cameraOpen) closeCamera();
}

// One finding: ticked or crossed, what was found, and what to do under a crossed one.
function findingItem(finding) {
  return h("li", { class: finding.ok ? "ok" : "bad" },
    h("span", { class: "mark", "aria-hidden": "true" }, finding.ok ? "✓" : "✗"),
    h("span", {}, finding.said, finding.fix ? h("small", { class: "fix" }, finding.fix) : null));
}

function drawChecked(answer) {
  if (scrollPending) {
    scrollPending = false;
    document.getElementById("look").scrollIntoView({ block: "start" });
  }
  const box = document.getElementById("setup-said");
  const report = answer.report;
  box.replaceChildren();
  document.getElementById("setup-tries").hidden = answer.camera === "none";
  if (answer.camera === "none") {
    box.append(h("p", { class: "setup-note" }, t("setup_none")));
    return;
  }
  if (!report) {
    box.append(h("p", { class: "setup-note" }, t("setup_waiting")));
  } else if (report.ready) {
    box.append(h("p", { class: "setup-verdict ready" }, t("setup_ready")));
  } else {
    const first = report.first_fix;
    box.append(h("div", { class: "setup-verdict" }, h("strong", {}, t("setup_not_ready")),
      h("p", {}, first.said), h("p", { class: "fix" }, first.fix)));
  }
  if (report) {
    box.append(h("h3", {}, t("setup_all")),
      h("ul", { class: "setup-findings" }, report.findings.map(findingItem)));
  }
  drawPresses(answer.buttons);
  const speaker = document.getElementById("setup-speaker");
  speaker.disabled = !answer.speaker;
  const voice = document.getElementById("setup-voice");
  voice.hidden = answer.speaker;
  voice.textContent = answer.speaker ? "" : t("setup_no_voice");
  const save = document.getElementById("setup-save");
  save.disabled = !answer.save || !report;
  if (!answer.save) document.getElementById("setup-saved").textContent = t("setup_no_file");
  document.getElementById("setup-led").disabled = !answer.buttons;
  document.getElementById("setup-buzzer").disabled = !answer.buttons;
}

// Each button: asked for until a press reaches the companion after the view opened.
function drawPresses(buttons) {
  const list = document.getElementById("setup-buttons");
  list.replaceChildren();
  if (!buttons) {
    list.append(h("li", {}, t("setup_no_buttons")));
    return;
  }
  if (view && view.game !== null && !view.over) {  // the shell's latest view
    list.append(h("li", { class: "setup-playing" }, t("setup_playing")));
  }
  if (pressesAtOpen === null) {
    pressesAtOpen = Object.fromEntries(buttons.map((seen) => [seen.button, seen.presses]));
  }
  for (const seen of buttons) {
    const name = seen.button.toUpperCase();  // as printed on the button
    const pressed = seen.presses > pressesAtOpen[seen.button];
    list.append(h("li", { class: pressed ? "ok" : "", "data-button": seen.button },
      h("span", { class: "mark", "aria-hidden": "true" }, pressed ? "✓" : "…"),
      h("span", {}, pressed ? t("setup_pressed", { button: name, ago: Math.round(seen.ago) })
        : t("setup_press", { button: name }))));
  }
}

// The game whose play area the check looks at: between games the one chosen on the start
// form (the family sets the table up for the game they are about to deal), else the game
// being played (the table's own, so nothing is sent).
function chosenGame() {
  const choice = document.getElementById("game");
  const between = !view || view.game === null || view.over;
  return between && choice && choice.value ? `&game=${encodeURIComponent(choice.value)}` : "";
}

async function nextCheck() {
  setupTimer = null;
  if (!setupOpen || document.hidden) return;  // asked again when the page is back in sight
  const started = performance.now();
  if (!pin) {
    document.getElementById("setup-said").replaceChildren(h("p", {}, t("setup_needs_pin")));
  } else {
    setupAsking = true;
    try {
      const response = await fetch(`/api/setup?lang=${LANG}${chosenGame()}`,
        { headers: { "X-Table-Pin": pin }, cache: "no-store" });
      const data = await response.json();
      if (!setupOpen) return;
      if (!response.ok) {
        const error = data.error || {};
        document.getElementById("setup-said").replaceChildren(h("p", {}, refusal(error)));
        if (error.rule === "pin") {
          setPinState(response.status === 429 ? "wait" : "wrong", { n: error.retry_after });
          return;  // no more asking with a PIN the table refuses
        }
      } else {
        drawChecked(data);
      }
    } catch {
      if (!setupOpen) return;
      document.getElementById("setup-said").replaceChildren(h("p", {}, t("no_answer")));
    } finally {
      setupAsking = false;
    }
  }
  if (setupOpen && setupTimer === null) {
    setupTimer = setTimeout(nextCheck, Math.max(0, SETUP_EVERY_MS - (performance.now() - started)));
  }
}

// Try one of the table's outputs, or save: what it did, or why not, said under the buttons.
async function tryOut(path, where) {
  const line = document.getElementById(where);
  line.hidden = false;
  line.textContent = "…";
  try {
    const response = await fetch(`${path}?lang=${LANG}`, { method: "POST", body: "{}",
      headers: { "Content-Type": "application/json", "X-Table-Pin": pin } });
    const data = await response.json();
    if (response.ok) {
      line.textContent = data.said;
      return;
    }
    const error = data.error || {};
    line.textContent = refusal(error);
    if (error.rule === "pin") setPinState(response.status === 429 ? "wait" : "wrong", { n: error.retry_after });
  } catch {
    line.textContent = t("no_answer");
  }
}

function setupSetup() {
  document.getElementById("setup-open").addEventListener("click", () =>
    (setupOpen ? closeSetup() : openSetup()));
  document.getElementById("setup-close").addEventListener("click", closeSetup);
  for (const [id, path] of [["setup-led", "led"], ["setup-buzzer", "buzzer"], ["setup-speaker", "speaker"]]) {
    document.getElementById(id).addEventListener("click", () => tryOut(`/api/setup/${path}`, "setup-tried"));
  }
  document.getElementById("setup-save").addEventListener("click", () => tryOut("/api/setup/save", "setup-saved"));
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && setupOpen && setupTimer === null && !setupAsking) nextCheck();
  });
  document.addEventListener("pin-state", showSetupButton);
  showSetupButton();
  // a bookmark of the setup view (`?view=setup`) opens it, for the PIN holder
  if (pin && new URLSearchParams(location.search).get("view") === "setup") openSetup();
}

document.addEventListener("DOMContentLoaded", setupSetup);
