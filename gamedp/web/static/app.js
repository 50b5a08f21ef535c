// The gamedp web board: asks the server (/api/) for each position's board and moves, draws them at once, and
// fills in their values as the server proves them (/api/values, server-sent events); a search the page leaves
// (another position shown, the page closed) is closed, and the server stops it.
// The page keeps the game's history (records) itself; the server keeps no state per player.
"use strict";

const HUES = { win: [130, 65], tie: [48, 90], lose: [0, 70], draw: [210, 70] };
const COMPUTER_DELAY_MS = 250;

const state = {
  game: null,        // the game's id, as /api/games lists it
  history: [],       // records of the positions played, from the start position
  index: 0,          // the record on the board
  selection: new Set(),
  requests: 0,       // requests in flight (body[data-busy] tells tests and styles)
  watching: null,    // the search whose values are coming in: { source (EventSource), record, timer }
};

const $ = (id) => document.getElementById(id);

// A value's colour: green win, yellow tie, red lose, blue draw; the sooner the end, the darker. A value a
// search (gamedp serve --depth) did not prove is null: pale, leaning green or red as its estimate (-1..1) does.
// A value still being searched is undefined: white.
function valueColor(value, remoteness, estimate) {
  if (value === undefined) return "hsl(0, 0%, 100%)";
  if (value === null) {
    const [hue] = HUES[estimate > 0 ? "win" : estimate < 0 ? "lose" : "tie"];
    return `hsl(${hue}, ${Math.round(10 + 40 * Math.min(Math.abs(estimate), 1))}%, 66%)`;
  }
  const [hue, saturation] = HUES[value] || [0, 0];
  const steps = remoteness < 0 ? 8 : Math.min(remoteness, 12);
  return `hsl(${hue}, ${saturation}%, ${24 + steps * 3.5}%)`;
}

// Black or white, whichever reads better on an hsl() background (WCAG's contrast of relative luminances).
function textOn(color) {
  const [h, s, l] = color.match(/[\d.]+/g).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000" : "#fff";
}

function valueText(value, remoteness, winby, estimate) {
  if (value === undefined) return "…";
  if (value === null) {  // as the command line writes it (lookahead.score_text): never "-0.00"
    const shown = Math.round(estimate * 100) / 100;
    return shown === 0 ? "estimate 0.00" : `estimate ${shown > 0 ? "+" : ""}${shown.toFixed(2)}`;
  }
  let text = value.toUpperCase();
  if (remoteness >= 0 && value !== "draw") text += ` in ${remoteness}`;
  if (winby !== undefined) text += ` by ${winby}`;
  return text;
}

// A move's value for the player making it: its remoteness is one more than the position it leads to.
function moveRemoteness(move) {
  return move.remoteness >= 0 ? move.remoteness + 1 : move.remoteness;
}

async function api(path, params) {
  const url = path + "?" + new URLSearchParams(params).toString();
  state.requests += 1;
  document.body.dataset.busy = "1";
  try {
    const response = await fetch(url);
    const body = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
    if (!response.ok) {
      showMessage(body.error || `the server answered ${response.status}`);
      return null;
    }
    return body;
  } catch (error) {
    showMessage(`cannot reach the server: ${error}`);
    return null;
  } finally {
    state.requests -= 1;
    if (state.requests === 0) document.body.dataset.busy = "0";
  }
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
}

const current = () => state.history[state.index];
// Whether a record's values are in (a board's record has none until its search is done).
const known = (record) => record.positionValue !== undefined;
const mode = () => $("mode").value;

// In a game against the perfect opponent, whose turn it is follows from the moves made since the start.
function computerToMove(index) {
  if (mode() === "two") return false;
  return index % 2 === (mode() === "computer-first" ? 0 : 1);
}

// The game and the position on the board are in the page's address: a bookmark opens there, and the browser's
// back and forward buttons step through the positions shown (address = "push"), as undo and redo do.
function remember(how) {
  const record = current();
  const query = "?" + new URLSearchParams({ game: state.game, position: record.position }).toString();
  if (location.search === query) return;
  const entry = { game: state.game, position: record.position };
  if (how === "push") history.pushState(entry, "", query); else history.replaceState(entry, "", query);
}

async function loadPosition(game, position, address = "push") {
  const params = { game };
  if (position) params.position = position;
  const record = await api("/api/board", params);
  if (!record) return false;
  state.game = game;
  state.history = [record];
  state.index = 0;
  $("game").value = game;
  showMessage("");
  render();
  if (address) remember(address);
  return true;
}

// Back or forward: a position of this game's history is shown again (redo still knows what followed);
// any other is asked for.
function revisit(entry) {
  if (!entry) return;
  const at = entry.game === state.game ? state.history.findIndex((r) => r.position === entry.position) : -1;
  if (at < 0) return loadPosition(entry.game, entry.position, null);
  state.index = at;
  render(false);
}

async function play(moveName) {
  if (state.requests > 0) return;
  const here = current();
  const record = await api("/api/board", { game: state.game, position: here.position, move: moveName });
  if (!record || current() !== here) return;
  state.history = state.history.slice(0, state.index + 1);
  state.history.push(record);
  state.index += 1;
  showMessage("");
  render();
  remember("push");
}

// body[data-thinking] is "1" while the computer's move is pending (tests and styles wait for it).
function scheduleComputer() {
  const at = state.index;
  const record = current();
  const due = record && computerToMove(at) && record.moves.length > 0 && known(record);
  document.body.dataset.thinking = due ? "1" : "0";
  if (!due) return;
  setTimeout(async () => {
    if (state.index === at && current() === record && computerToMove(at)) await play(record.moves[0].moveName);
    if (current() === record) document.body.dataset.thinking = "0";
  }, COMPUTER_DELAY_MS);
}

function undo() {
  if (state.index === 0 || state.requests > 0) return;
  state.index -= 1;
  while (state.index > 0 && computerToMove(state.index)) state.index -= 1;
  render(false);
  remember("push");
}

function redo() {
  if (state.index >= state.history.length - 1 || state.requests > 0) return;
  state.index += 1;
  while (state.index < state.history.length - 1 && computerToMove(state.index)) state.index += 1;
  render();
  remember("push");
}

function render(letComputerMove = true) {
  document.body.dataset.thinking = "0";
  const record = current();
  state.selection.clear();
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index >= state.history.length - 1;
  $("position-input").value = record.position;
  $("position-input").rows = record.position.split("\n").length;  // board drawings take several lines
  renderStatus(record);
  renderPartizan(record);
  renderBoard(record);
  renderMoves(record);
  renderChart();
  watch(record);
  if (letComputerMove) scheduleComputer();
}

// The values of the record on the board, as the server proves them: each move's as it comes, then the whole
// record (best first). Only the record shown is searched: watching another stops the search of the last.
// body[data-searching] is "1" meanwhile (tests and styles wait for it).
function watch(record) {
  if (state.watching && state.watching.record === record) return;
  stopWatching();
  if (known(record)) return;
  const source = new EventSource("/api/values?" + new URLSearchParams({ game: state.game, position: record.position }));
  const began = Date.now();
  const tick = () => { $("searching").textContent = `searching… ${Math.round((Date.now() - began) / 1000)} s`; };
  state.watching = { source, record, timer: setInterval(tick, 1000) };
  tick();
  $("searching").hidden = false;
  document.body.dataset.searching = "1";
  source.addEventListener("move", (event) => {
    const entry = JSON.parse(event.data);
    const move = record.moves.find((m) => m.moveName === entry.moveName);
    if (move) Object.assign(move, entry);
    if (current() === record) {
      renderMoves(record);
      paintBoard(record);
    }
  });
  source.addEventListener("done", (event) => {
    stopWatching();
    Object.assign(record, JSON.parse(event.data));
    if (current() === record) render();
  });
  source.addEventListener("stopped", () => {
    stopWatching();
    showMessage("the search of this position was stopped: another one of this game took its place");
  });
  source.addEventListener("failed", (event) => {
    stopWatching();
    showMessage(JSON.parse(event.data).error);
  });
  source.onerror = () => {
    if (state.watching && state.watching.source === source) {
      stopWatching();
      showMessage("lost the server while searching; reload the page to search again");
    }
  };
}

function stopWatching() {
  if (!state.watching) return;
  state.watching.source.close();
  clearInterval(state.watching.timer);
  state.watching = null;
  $("searching").hidden = true;
  document.body.dataset.searching = "0";
}

// The opponent: perfect, or a search some moves deep (records then carry the depth).
function opponentName(record) {
  return record.depth ? `a search ${record.depth} moves deep` : "the perfect opponent";
}

function renderStatus(record) {
  const value = valueText(record.positionValue, record.remoteness, record.winby, record.estimate);
  let text;
  if (!known(record)) {
    text = record.moves.length === 0 ? "Game over"
      : computerToMove(state.index) ? "The computer is searching for its move"
        : "Searching for the values; the moves can be played meanwhile";
  } else if (record.moves.length > 0) {
    const who = mode() === "two" ? `Player ${state.index % 2 + 1}` : computerToMove(state.index) ? "The computer" : "You";
    const how = record.depth ? ` (${record.positionValue === null ? "" : "proven by "}a search ${record.depth} moves deep)` : "";
    text = `${who} to move: ${value}${how}`;
  } else if (mode() === "two") {
    text = `Game over: ${value} for player ${state.index % 2 + 1}, who cannot move`;
  } else {
    const mine = computerToMove(state.index) ? { win: "lose", lose: "win" }[record.positionValue] || record.positionValue
      : record.positionValue;
    text = `Game over: ${{ win: "you win", lose: "you lose", tie: "a tie", draw: "a draw" }[mine]}`;
  }
  $("status").textContent = text;
  $("status").dataset.value = known(record) ? record.positionValue ?? "estimate" : "unknown";
  $("mode").options[0].textContent = `against ${opponentName(record)}, you first`;
  $("mode").options[1].textContent = `against ${opponentName(record)}, it first`;
}

// A partizan game's value (CGSuite's notation), where the server found it; hidden with the other values.
function renderPartizan(record) {
  const line = $("partizan");
  line.hidden = !record.partizanValue || !$("show-values").checked;
  line.textContent = record.partizanValue
    ? `Value: ${record.partizanValue}` + (record.partizanLeft ? ` (Left: ${record.partizanLeft})` : "") : "";
}

function renderBoard(record) {
  const board = $("board");
  board.dataset.position = record.position;
  if (record.board) {
    board.innerHTML = record.board;
    for (const el of board.querySelectorAll("[data-cell]")) {
      el.addEventListener("click", () => clickCell(el.dataset.cell));
    }
  } else {
    board.innerHTML = "";
    const pre = document.createElement("pre");
    pre.textContent = record.text;
    board.appendChild(pre);
  }
  paintBoard(record);
}

// The moves still possible with the selected cells: those naming every selected cell.
function candidates(record, cells) {
  return record.moves.filter((m) => m.cells.length > 0 && [...cells].every((c) => m.cells.includes(c)));
}

function sameSet(list, set) {
  return list.length === set.size && list.every((c) => set.has(c));
}

function clickCell(cell) {
  const record = current();
  if (state.requests > 0 || computerToMove(state.index)) return;
  const chosen = state.selection;
  // A second click on a cell of a complete move plays it (a domino inside a tromino needs the choice).
  const complete = record.moves.find((m) => sameSet(m.cells, chosen));
  if (chosen.has(cell) && complete) return play(complete.moveName);
  if (chosen.has(cell)) chosen.delete(cell); else chosen.add(cell);
  if (candidates(record, chosen).length === 0) {
    chosen.clear();
    if (candidates(record, [cell]).length > 0) chosen.add(cell);
  }
  const options = candidates(record, chosen);
  const exact = options.filter((m) => sameSet(m.cells, chosen));
  if (exact.length > 0 && exact.length === options.length) return play(exact[0].moveName);
  paintBoard(record);
  if (exact.length > 0) showMessage(`click ${cell} again to play ${exact[0].moveName}, or choose more cells`);
}

// Each clickable cell takes the best value of the moves it would complete or extend.
function paintBoard(record) {
  const show = $("show-values").checked && !computerToMove(state.index);
  for (const el of $("board").querySelectorAll("[data-cell]")) {
    const cell = el.dataset.cell;
    const best = candidates(record, new Set([...state.selection, cell])).find((m) => m.moveValue !== undefined);
    el.classList.toggle("selected", state.selection.has(cell));
    const paint = show && best && !state.selection.has(cell);
    el.setAttribute("fill", paint ? valueColor(best.moveValue, moveRemoteness(best), best.moveEstimate) : el.dataset.fill);
    if (best) el.dataset.value = best.moveValue ?? "estimate"; else delete el.dataset.value;

  }
}

function renderMoves(record) {
  const list = $("moves");
  list.innerHTML = "";
  list.classList.toggle("plain", !$("show-values").checked);
  if (record.moves.length === 0) list.textContent = "no moves: the game is over";
  for (const move of record.moves) {
    const button = document.createElement("button");
    const remoteness = moveRemoteness(move);
    button.dataset.move = move.moveName;
    button.dataset.value = move.moveValue === undefined ? "unknown" : move.moveValue ?? "estimate";
    button.dataset.remoteness = remoteness;
    button.dataset.color = valueColor(move.moveValue, remoteness, move.moveEstimate);
    button.style.background = button.dataset.color;
    button.style.color = textOn(button.dataset.color);
    button.append(move.moveName + " ");
    const value = document.createElement("span");
    value.className = "v";
    value.textContent = valueText(move.moveValue, remoteness, undefined, move.moveEstimate);
    button.appendChild(value);
    button.addEventListener("click", () => { if (!computerToMove(state.index)) play(move.moveName); });
    list.appendChild(button);
  }
}

// Remoteness after each move, for the player who moved first: up when winning, down when losing, on the
// middle line for ties and draws (as GamesmanUni's value history); an estimate as far up or down as it leans.
// A position whose values were not searched to the end has no point.
function renderChart() {
  const records = state.history;
  const w = 560, h = 220, left = 36, top = 14, bottom = 30;
  const most = Math.max(1, ...records.filter(known).map((r) => Math.max(r.remoteness, 0)));
  const x = (i) => left + (i * (w - left - 10)) / Math.max(records.length - 1, 1);
  const mid = top + (h - top - bottom) / 2;
  const y = (signed) => mid - (signed * (h - top - bottom) / 2) / most;
  const flip = { win: "lose", lose: "win", tie: "tie", draw: "draw" };
  const points = records.map((r, i) => [r, i]).filter(([r]) => known(r)).map(([r, i]) => {
    const sign = i % 2 === 0 ? 1 : -1;
    if (r.positionValue === null) {
      const estimate = sign * r.estimate;
      return { i, value: null, estimate, signed: estimate * most, r };
    }
    const value = sign === 1 ? r.positionValue : flip[r.positionValue];
    const size = r.remoteness >= 0 ? r.remoteness : most;
    return { i, value, signed: value === "win" ? size : value === "lose" ? -size : 0, r };
  });
  const parts = [
    `<line x1="${left}" y1="${mid}" x2="${w - 10}" y2="${mid}" stroke="#bbb"/>`,
    `<text x="4" y="${top + 8}" font-size="11">first player wins</text>`,
    `<text x="4" y="${h - bottom - 2}" font-size="11">first player loses</text>`,
    `<text x="${w / 2}" y="${h - 6}" font-size="11" text-anchor="middle">move (remoteness up or down)</text>`,
    `<polyline fill="none" stroke="#888" points="${points.map((p) => `${x(p.i)},${y(p.signed)}`).join(" ")}"/>`,
  ];
  for (const p of points) {
    const ring = p.i === state.index ? ` stroke="#26324a" stroke-width="3"` : "";
    parts.push(`<circle class="point" data-value="${p.value ?? "estimate"}" cx="${x(p.i)}" cy="${y(p.signed)}" r="5" ` +
      `fill="${valueColor(p.value, p.r.remoteness, p.estimate)}"${ring}><title>after ${p.i} moves: ` +
      `${valueText(p.r.positionValue, p.r.remoteness, undefined, p.r.estimate)} for the player to move</title></circle>`);
  }
  $("chart").innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}">${parts.join("")}</svg>`;
}

async function start() {
  const listing = await api("/api/games", {});
  if (!listing) return;
  const picker = $("game");
  for (const id of listing.games) {
    const option = document.createElement("option");
    option.value = option.textContent = id;
    picker.appendChild(option);
  }
  picker.value = listing.start.game;
  picker.addEventListener("change", () => loadPosition(picker.value, null));
  $("mode").addEventListener("change", () => render());
  $("show-values").addEventListener("change", () => {
    paintBoard(current());
    renderMoves(current());
    renderPartizan(current());
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => {
    if (state.history.length > 0) loadPosition(state.game, state.history[0].position);
    else loadPosition(picker.value, null);
  });
  $("position-form").addEventListener("submit", (event) => {
    event.preventDefault();
    loadPosition(state.game, $("position-input").value);
  });
  window.addEventListener("popstate", (event) => revisit(event.state || addressed()));
  const asked = addressed();
  if (asked && listing.games.includes(asked.game)) await loadPosition(asked.game, asked.position, "replace");
  else await loadPosition(listing.start.game, listing.start.position, "replace");
}

// The game and position the address names, or null.
function addressed() {
  const params = new URLSearchParams(location.search);
  return params.get("game") ? { game: params.get("game"), position: params.get("position") } : null;
}

start();
