// The phone at the table: installs the service worker, keeps the screen awake during a match, and
// keeps a tap the connection lost: its form says so and, carrying its step number (seq), sends itself
// again when the connection is back; a copy the server already has gets a 409 and the fresh state.
(() => {
  const say = document.currentScript.dataset;
  if ("serviceWorker" in navigator) addEventListener("load", () => navigator.serviceWorker.register(say.worker).catch(() => {}));

  let awake = null; // the wake lock (a promise) while held or asked for
  function keepAwake() {
    if (!navigator.wakeLock) return;
    const match = document.querySelector("[data-live-url]");
    if (match && !match.hasAttribute("data-live-stop") && document.visibilityState === "visible") {
      if (awake) return;
      const asked = awake = navigator.wakeLock.request("screen").then((lock) => {
        lock.addEventListener("release", () => { if (awake === asked) awake = null; });
        return lock;
      }, () => { if (awake === asked) awake = null; }); // refused (battery saver): the screen may dim
    } else if (awake) {
      awake.then((lock) => lock && lock.release());
      awake = null;
    }
  }
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake); // the match may have ended
  addEventListener("pagehide", () => { if (awake) awake.then((lock) => lock && lock.release()); awake = null; });

  // The outcome region's close link reloads the page without JavaScript; with it, the note just goes.
  document.addEventListener("click", (e) => {
    const close = e.target.closest("[data-dismiss]");
    if (!close) return;
    e.preventDefault();
    close.parentElement.remove();
  });

  // The keyboard keeps its place. An answer replaces a region (#match), the control that sent it included:
  // htmx puts the focus back on an element of the same id, and where there is none, it goes to where the next
  // step starts (the first field of the form of the same id, else of the first form that changes the match,
  // else the heading), never to <body>. Only when the focus showed (a keyboard's): a tap leaves the page be.
  const places = {}; // by the id of the region a request will replace
  document.addEventListener("htmx:beforeRequest", (e) => {
    const active = document.activeElement;
    const target = e.detail.target;
    if (!target || !target.id) return;
    places[target.id] = active && active !== document.body && active.matches(":focus-visible")
      ? { form: active.form ? active.form.id : "" } : null;
  });
  const FIELD = "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled), " +
    "button:not(:disabled)";
  function start(form) {
    const first = form && form.querySelector(FIELD);
    if (!first || first.type !== "radio") return first;
    return [...form.elements].find((radio) => radio.name === first.name && radio.checked) || first;
  }
  document.addEventListener("htmx:afterSettle", (e) => {
    const id = e.detail.target && e.detail.target.id;
    const was = id && places[id];
    if (id) delete places[id];
    const region = was && document.getElementById(id);
    if (!region || (document.activeElement && document.activeElement !== document.body)) return;
    const own = was.form && document.getElementById(was.form);
    const acts = [...region.querySelectorAll("form[method=post]")].find((form) => !form.closest(".controls"));
    let next = (own && region.contains(own) && start(own)) || start(acts);
    if (!next) {
      next = region.querySelector("h1");
      if (next) next.tabIndex = -1;
    }
    if (next) next.focus();
  });

  // A board whose cells are radios (a table with data-grid): Up and Down move a row, in the same column. Left
  // and Right keep the browser's own way, along the cells in reading order.
  document.addEventListener("keydown", (e) => {
    if ((e.key !== "ArrowUp" && e.key !== "ArrowDown") || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const radio = e.target;
    const grid = radio.type === "radio" && radio.closest("table[data-grid]");
    if (!grid) return;
    e.preventDefault();
    const cell = radio.closest("td");
    const step = e.key === "ArrowUp" ? -1 : 1;
    for (let row = cell.parentElement.rowIndex + step; row >= 0 && row < grid.rows.length; row += step) {
      const there = grid.rows[row].cells[cell.cellIndex];
      const next = there && [...there.querySelectorAll("input[type=radio]")].find((other) => other.name === radio.name);
      if (next && !next.disabled) {
        next.focus();
        if (!next.checked) {
          next.checked = true;
          next.dispatchEvent(new Event("input", { bubbles: true }));
          next.dispatchEvent(new Event("change", { bubbles: true }));
        }
        return;
      }
    }
  });

  const WAITS = [1000, 2000, 4000, 8000, 15000, 30000];
  const lost = (xhr) => !xhr.status || xhr.status > 501 && xhr.status < 505; // no answer, or the proxy had none
  document.addEventListener("submit", (e) => { e.target.tapped = e.submitter; }, true);

  function note(form, text) {
    let line = form.querySelector(".net-note");
    if (!line) {
      line = form.appendChild(document.createElement("p"));
      line.className = "net-note";
      line.setAttribute("role", "alert");
    }
    line.textContent = text;
  }
  function resend(form) {
    clearTimeout(form.timer);
    if (!form.isConnected || !form.hasAttribute("data-retry-pending")) return;
    form.tries = (form.tries || 0) + 1;
    note(form, say.sending);
    const button = form.tapped; // the same button again: its name and value go too
    if (button && button.isConnected && button.form === form) button.click(); else form.requestSubmit();
  }
  // Only a form's own POST is sent again: a GET from a field inside it (a card picker's list) never is.
  const posted = (e) => !e.detail.requestConfig || e.detail.requestConfig.verb !== "get";
  function failed(e) {
    if (!posted(e)) return;
    const form = e.detail.elt.closest("form[method=post]");
    if (!form || !lost(e.detail.xhr)) return;
    if (!form.querySelector("[name=seq]")) return note(form, say.manual);
    form.setAttribute("data-retry-pending", ""); // live.js waits for it
    note(form, say.waiting);
    clearTimeout(form.timer);
    if (navigator.onLine) form.timer = setTimeout(() => resend(form), WAITS[Math.min(form.tries || 0, 5)]);
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach((name) => document.addEventListener(name, failed));
  document.addEventListener("htmx:afterRequest", (e) => {
    const form = posted(e) && e.detail.elt.closest("form");
    if (form && !lost(e.detail.xhr)) { form.removeAttribute("data-retry-pending"); form.tries = 0; }
  });
  addEventListener("online", () => document.querySelectorAll("form[data-retry-pending]").forEach((form) => {
    form.tries = 0;
    resend(form);
  }));
})();
