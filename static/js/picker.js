// Card fields that show the matching cards as you type (templates/tracker/picker.html). A tap on a card
// fills its field, says what was chosen, and moves on: to the next empty card field the form needs, or,
// once the form is complete, to its button. Cards another field of the form already holds are left out.
// Pages that link it (the secret entries) have it at once; elsewhere it comes with the first list of cards
// (tracker/catalog/views.py: card_picks), so a match page pays for it and its stylesheet only once a card is chosen. It may
// arrive more than once.
(() => {
  if (window.tkPicker) return;
  window.tkPicker = true;
  // Its look (picker.css) is linked once, from here, so a page without a card list never loads it; the lists
  // show once it has come (app.css hides them until then), or failed to.
  const sheet = document.createElement("link");
  sheet.rel = "stylesheet";
  sheet.href = document.currentScript.dataset.css;
  const shown = () => {
    document.documentElement.classList.add("tk-picker");
    const field = document.activeElement;
    if (field && field.matches("input[data-picker]") && field.dataset.picked === undefined) {
      reveal(field, field.parentElement.querySelector(".picks"));
    }
  };
  sheet.addEventListener("load", shown);
  sheet.addEventListener("error", shown);
  document.head.append(sheet);
  // The browser's own suggestions (a <datalist>, for phones without JavaScript) would cover the list.
  document.querySelectorAll("input[data-picker][list]").forEach((input) => input.removeAttribute("list"));

  const fieldsOf = (form) => (form ? [...form.querySelectorAll("input[data-picker]")] : []);
  const same = (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase();

  // A list arriving late never covers what the field now holds: one asked for other text (typing went on;
  // lists are queued, never aborted, as htmx reports an abort as a console error), one for a field the player
  // has left (it would lie over the next field or the button), or any list once a card was tapped, until the
  // player types in that field or comes back to it.
  document.addEventListener("htmx:beforeSwap", (e) => {
    const picks = e.detail.target;
    if (!picks.classList.contains("picks")) return;
    const input = picks.parentElement.querySelector("input[data-picker]");
    const asked = new URL(e.detail.xhr.responseURL).searchParams.get(input.name) || "";
    if (!same(asked, input.value) || input.dataset.picked !== undefined || document.activeElement !== input) {
      e.detail.shouldSwap = false;
    }
  });
  // Nor is a list asked for a field the player has already left (for the next field, or to send the form).
  document.addEventListener("htmx:beforeRequest", (e) => {
    const input = e.detail.elt;
    if (input.matches("input[data-picker]") && document.activeElement !== input) e.preventDefault();
  });
  ["input", "focusin"].forEach((name) => document.addEventListener(name, (e) => {
    if (e.target.matches && e.target.matches("input[data-picker]")) delete e.target.dataset.picked;
  }));

  // The list lies over the page (picker.css): Escape, leaving the field, or a tap anywhere else closes it. Closed
  // like a picked one, a list still on its way stays away until the player types or comes back to the field.
  const close = (picks) => {
    if (!picks.querySelector(".picks-list, .muted")) return false; // nothing open (or the line of a card chosen)
    picks.replaceChildren();
    picks.parentElement.querySelector("input[data-picker]").dataset.picked = "";
    return true;
  };
  const closeOthers = (target) => document.querySelectorAll(".picker > .picks").forEach((picks) => {
    if (!picks.parentElement.contains(target)) close(picks);
  });
  let down; // where the last tap began: Safari leaves the field for a tapped card with no relatedTarget
  document.addEventListener("focusin", (e) => closeOthers(e.target));
  document.addEventListener("pointerdown", (e) => closeOthers(down = e.target));
  document.addEventListener("focusout", (e) => {
    const picks = e.target.matches && e.target.matches("input[data-picker]") && e.target.nextElementSibling;
    if (picks && !picks.contains(e.relatedTarget || down)) close(picks);
  });
  document.addEventListener("keydown", (e) => {
    const picker = e.key === "Escape" && e.target.closest ? e.target.closest(".picker") : null;
    if (!picker || !close(picker.querySelector(".picks"))) return;
    e.preventDefault();
    picker.querySelector("input[data-picker]").focus();
  });

  // The field an entry opens ready to type in (data-autofocus: LOGOS's card). Not `autofocus`, which scrolls
  // the page to it, and whose focus, once htmx listens, opens its list over the fields and buttons below it:
  // focused where the page is, its list closed (as a picked one) until the player types or taps the field.
  // A refused entry's first refused field has both: the page scrolls to it, its list closed all the same.
  // Run before htmx listens (both scripts are deferred; htmx starts on DOMContentLoaded), so nothing is asked.
  const ready = document.querySelector("input[data-autofocus]");
  if (ready) {
    ready.focus({ preventScroll: !ready.autofocus });
    ready.dataset.picked = "";
  }
  // A refused entry opens on why (#entry-notice has autofocus, which centres it: a tall notice lost its first lines
  // above the screen): its top at the top of the screen, the fields and the button under it. After the page's own
  // focus scroll, which comes with the load.
  const notice = document.getElementById("entry-notice");
  if (notice) window.addEventListener("load", () => requestAnimationFrame(() => notice.scrollIntoView({ block: "start" })));
  // A tap on a field that has the focus and no list (as the page opened, or after Escape): its list.
  document.addEventListener("click", (e) => {
    const input = e.target;
    if (!input.matches("input[data-picker]") || input.dataset.picked === undefined) return;
    delete input.dataset.picked;
    if (window.htmx) htmx.trigger(input, "focus");
  });

  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target.classList.contains("picks")) arrived(e.detail.target);
  });
  // The list this script came with (on a match page) arrived before it could listen, and was not checked
  // as the ones after it are: it may be for text typed since, or for a field already left.
  setTimeout(() => document.querySelectorAll(".picker > .picks").forEach((picks) => {
    if (!picks.querySelector(".picks-list, .muted")) return; // no list came: nothing to check or show
    if (document.activeElement !== picks.parentElement.querySelector("input[data-picker]")) close(picks);
    else arrived(picks);
  }));

  function arrived(picks) {
    const input = picks.parentElement.querySelector("input[data-picker]");
    const others = fieldsOf(input.form).filter((other) => other !== input && other.value.trim());
    const buttons = [...picks.querySelectorAll("button[data-pick]")];
    buttons.forEach((button) => {
      if (others.some((other) => same(other.value, button.dataset.pick))) button.parentElement.hidden = true;
    });
    // A screen reader is told how many cards are left to choose from (the answer holds the words for each number).
    const status = picks.querySelector("[data-said]");
    const left = buttons.filter((button) => !button.parentElement.hidden).length;
    if (status && left < buttons.length) status.textContent = JSON.parse(status.dataset.said)[left];
    // A card's whole name typed: the list has done its job and would only cover what comes next (the button).
    if (buttons.some((button) => !button.parentElement.hidden && same(button.dataset.pick, input.value))) {
      close(picks);
      return;
    }
    if (document.activeElement === input) reveal(input, picks);
  }

  // The list under the field in view (above the keyboard, where there is one), without pushing the field
  // and its label off the top: the page moves only as far as that needs.
  function reveal(input, picks) {
    const list = picks.querySelector(".picks-list") || picks;
    const view = window.visualViewport;
    const bottom = view ? view.offsetTop + view.height : window.innerHeight;
    const below = list.getBoundingClientRect().bottom - bottom;
    const room = input.closest(".picker").getBoundingClientRect().top - 8; // its label stays in view too
    if (below > 0 && room > 0) window.scrollBy(0, Math.min(below, room));
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-pick]");
    if (!button) return;
    const picks = button.closest(".picks");
    const input = picks.parentElement.querySelector("input[data-picker]");
    input.value = button.dataset.pick;
    input.dataset.picked = "";
    const chosen = document.createElement("p");
    chosen.className = "pick-chosen";
    chosen.textContent = "✓ " + button.dataset.pick + " · " + button.querySelector(".pick-facts").textContent.replace(/\s+/g, " ").trim();
    picks.replaceChildren(chosen);
    const fields = fieldsOf(input.form);
    const next = fields.slice(fields.indexOf(input) + 1).find((field) => field.required && !field.value.trim());
    if (next) next.focus();
    else if (input.form && input.form.checkValidity()) {
      const submit = input.form.querySelector("button[type=submit]");
      if (submit) submit.focus();
    }
  });
})();
