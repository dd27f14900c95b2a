/* The dealer tablet, progressively enhanced. Every form works without this file; with it:
   - the 52-card grid fills the highlighted card box (then moves on to the next box),
   - typed cards show as cards, and cards already used anywhere in the round are greyed out,
   - a game's own behaviours, declared by data attributes its templates set:
     [data-picks-cap="N"] on a set of checkboxes: how many are ticked (at most N) is how many
     cards its form's card box takes (e.g. the cards discarded, the cards drawn);
     output[data-mirror-of="ID"]: shows the amount typed in input #ID (a wager that follows it),
   - htmx shows a refused entry (400/409) and the 403 page instead of ignoring them. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var SUIT = { c: "c", d: "d", h: "h", s: "s", "♣": "c", "♦": "d", "♥": "h", "♠": "s",
               "♧": "c", "♢": "d", "♡": "h", "♤": "s" };
  var SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var RANKS = "23456789TJQKA";
  var active = null;

  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function tokens(text) { return String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean); }
  function parseCard(token) {
    var suit = SUIT[token.slice(-1).toLowerCase()] || SUIT[token.slice(-1)];
    var rank = token.slice(0, -1).toUpperCase();
    if (rank === "10") { rank = "T"; }
    return suit && rank.length === 1 && RANKS.indexOf(rank) >= 0 ? rank + suit : null;
  }
  function label(code) { return (code[0] === "T" ? "10" : code[0]) + SYMBOL[code[1]]; }

  // --- card boxes and the grid ------------------------------------------------------------
  function boxInput(box) { return box.querySelector("input"); }
  function capacity(box) { var n = parseInt(box.getAttribute("data-max"), 10); return isNaN(n) ? 3 : n; }
  function count(box) { return tokens(boxInput(box).value).length; }
  function usable(box) {
    return capacity(box) > 0 && box.offsetParent !== null && !box.closest("details:not([open]), [hidden]");
  }
  function hasRoom(box) { return usable(box) && count(box) < capacity(box); }

  function setActive(box, reveal) {
    if (active) { active.classList.remove("active"); }
    active = box || null;
    if (!active) { return; }
    active.classList.add("active");
    if (reveal) {
      // show the box (and its form's button) above the grid, which stays at the bottom
      var button = active.closest("form") && active.closest("form").querySelector("button[type=submit]");
      if (button) { button.scrollIntoView({ block: "nearest" }); }
      active.scrollIntoView({ block: "nearest" });
    }
  }

  function gridRoom() {
    // scrolling into view leaves room for the sticky grid at the bottom of the screen
    var panel = document.querySelector(".grid-panel.sticky:not([hidden])");
    var sticky = panel && getComputedStyle(panel).position === "sticky";
    document.documentElement.style.scrollPaddingBottom = sticky ? panel.offsetHeight + 16 + "px" : "";
  }

  function nextWithRoom(from) {
    var boxes = all(".cardfield").filter(usable);
    var start = boxes.indexOf(from);
    for (var k = 1; k <= boxes.length; k++) {
      var box = boxes[(start + k + boxes.length) % boxes.length];
      if (hasRoom(box)) { return box; }
    }
    return null;
  }

  function refresh() {
    var typed = {};
    all(".cardfield").forEach(function (box) {
      tokens(boxInput(box).value).forEach(function (t) {
        var c = parseCard(t);
        if (c) { typed[c] = (typed[c] || 0) + 1; }
      });
    });
    all(".cardfield").forEach(function (box) {
      var chips = box.querySelector(".chips");
      chips.textContent = "";
      tokens(boxInput(box).value).forEach(function (t) {
        var c = parseCard(t);
        var chip = document.createElement("span");
        var usedBefore = c && document.querySelector('.gc[data-card="' + c + '"][data-used]');
        chip.className = "pc" + (!c ? " bad" : "") + (c && "hd".indexOf(c[1]) >= 0 ? " red" : "") +
          (c && (typed[c] > 1 || usedBefore) ? " dup" : "");
        chip.textContent = c ? label(c) : t + "?";
        chip.title = !c ? "not a card" : usedBefore || typed[c] > 1 ? "already in the round" : "";
        chips.appendChild(chip);
      });
      box.querySelector(".cf-back").hidden = !boxInput(box).value.trim();
      box.classList.toggle("full", count(box) >= capacity(box));
      var need = box.querySelector(".cf-need");
      if (need) { need.textContent = capacity(box) + " card" + (capacity(box) === 1 ? "" : "s"); }
    });
    all(".grid-panel").forEach(function (panel) {
      // the grid shows only while a card box can take cards (e.g. once a decision that draws
      // is chosen)
      var scope = panel.closest("details") || document;
      panel.hidden = !all(".cardfield", scope).some(usable);
    });
    gridRoom();
    all(".gc").forEach(function (b) {
      var code = b.getAttribute("data-card");
      b.classList.toggle("picked", !!typed[code]);
      b.disabled = !!typed[code] || b.hasAttribute("data-used");
    });
  }

  function tap(code) {
    var box = active && hasRoom(active) ? active : nextWithRoom(active && usable(active) ? active : null);
    if (!box) { flash("Every card box is full: remove a card with ⌫ first."); return; }
    var input = boxInput(box);
    input.value = (input.value.trim() + " " + code).trim();
    setActive(box);
    refresh();
    if (!hasRoom(box)) { setActive(nextWithRoom(box) || box, true); }
  }

  function flash(text) {
    var grid = document.querySelector(".grid-panel:not([hidden]) .grid-hint");
    if (!grid) { return; }
    grid.textContent = text;
    grid.classList.add("warn");
  }

  // --- the games' behaviours: picks that size a card box; amounts that follow another ------
  function picksCap(set) { var n = parseInt(set.getAttribute("data-picks-cap"), 10); return isNaN(n) ? 1 : n; }
  function picksChanged(set) {
    var boxes = all("input[type=checkbox]", set);
    var n = boxes.filter(function (b) { return b.checked; }).length;
    boxes.forEach(function (b) { b.disabled = !b.checked && n >= picksCap(set); });
    var draw = set.closest("form").querySelector(".cardfield");
    if (draw) {
      draw.setAttribute("data-max", String(n));
      draw.hidden = n === 0 && !draw.classList.contains("invalid");
    }
    refresh();
    if (draw && n > 0) { setActive(draw, true); }
  }

  function mirror(input) {
    var out = input.id && document.querySelector('output[data-mirror-of="' + input.id + '"]');
    if (out) {
      var v = input.value.trim().replace(/^\$/, "");
      out.textContent = v ? "$" + (isNaN(Number(v)) ? v : Number(v).toFixed(2)) : "—";
    }
  }

  // --- wiring (delegated, so it survives htmx swaps) ----------------------------------------
  document.addEventListener("click", function (e) {
    var t = e.target;
    var card = t.closest(".gc");
    if (card && !card.disabled) { tap(card.getAttribute("data-card")); return; }
    var back = t.closest(".cf-back");
    if (back) {
      var box = back.closest(".cardfield");
      var input = boxInput(box);
      input.value = tokens(input.value).slice(0, -1).join(" ");
      setActive(box);
      refresh();
      return;
    }
    var clear = t.closest(".seat-clear");
    if (clear) {
      all("input", clear.closest("fieldset")).forEach(function (i) {
        if (i.type === "checkbox") { i.checked = false; } else { i.value = ""; mirror(i); }
      });
      return;
    }
    var field = t.closest(".cardfield");
    if (field) { setActive(field); }
  });
  document.addEventListener("focusin", function (e) {
    var box = e.target.closest && e.target.closest(".cardfield");
    if (box) { setActive(box); }
  });
  document.addEventListener("input", function (e) {
    if (e.target.closest(".cardfield")) { refresh(); }
    if (e.target.id) { mirror(e.target); }
  });
  document.addEventListener("change", function (e) {
    var set = e.target.closest("[data-picks-cap]");
    if (set) { picksChanged(set); }
  });
  document.addEventListener("toggle", function (e) {
    // opening a decision that takes cards (or a correction) makes its first card box the one
    // the grid fills
    refresh();
    var box = e.target.open && e.target.querySelector(".cardfield");
    if (box && usable(box)) { setActive(box, true); }
  }, true);
  document.addEventListener("keydown", function (e) {
    // Enter in a card box moves on to the next box of the same form; in the last, it submits.
    var box = e.key === "Enter" && e.target.closest && e.target.closest(".cardfield");
    if (!box) { return; }
    var boxes = all(".cardfield", box.closest("form")).filter(usable);
    var next = boxes[boxes.indexOf(box) + 1];
    if (next) { e.preventDefault(); boxInput(next).focus(); }
  });
  // Before htmx (or the browser) sends a form: form[data-confirm] asks once, and a form
  // [data-carry-cards] (the misdeal) carries the cards typed in the page's card boxes, so a
  // refusal gives them back as they were entered.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.hasAttribute("data-carry-cards")) {
      all("input.carried", form).forEach(function (i) { form.removeChild(i); });
      all(".cardfield input[name]").forEach(function (input) {
        if (input.form === form || !input.value.trim()) { return; }
        var copy = document.createElement("input");
        copy.type = "hidden";
        copy.className = "carried";
        copy.name = input.name;
        copy.value = input.value;
        form.appendChild(copy);
      });
    }
    var ask = form.getAttribute("data-confirm");
    if (ask && !window.confirm(ask)) {
      e.preventDefault();
      e.stopPropagation();  // at the document, before the form: htmx never sends it
    }
  }, true);
  document.addEventListener("submit", function (e) {
    var btn = e.target.querySelector(".confirm-btn");
    if (btn) { btn.textContent = "Closing the round…"; }
  });

  function init(swapped) {
    all("[data-picks-cap]").forEach(function (set) {
      var n = all("input:checked", set).length;
      var draw = set.closest("form").querySelector(".cardfield");
      if (draw) {
        draw.removeAttribute("data-await");
        draw.setAttribute("data-max", String(n));
        draw.hidden = n === 0 && !draw.classList.contains("invalid");
      }
      all("input[type=checkbox]", set).forEach(function (b) { b.disabled = !b.checked && n >= picksCap(set); });
    });
    all("output[data-mirror-of]").forEach(function (out) {
      var input = document.getElementById(out.getAttribute("data-mirror-of"));
      if (input) { mirror(input); }
    });
    all(".seat-clear").forEach(function (b) { b.hidden = false; });
    refresh();
    var invalid = document.querySelector(".cardfield.invalid");
    setActive(invalid && usable(invalid) ? invalid : nextWithRoom(null));
    // once htmx has settled the new content (20 ms), show the refusal, else the top
    setTimeout(function () {
      var error = document.querySelector(".field-error, .t-alert");
      if (error) { error.scrollIntoView({ block: "center" }); } else if (swapped) { window.scrollTo(0, 0); }
    }, swapped ? 60 : 0);
  }

  // --- htmx: show refusals and the 403 page; leave the tablet for any other page -----------
  if (window.htmx) {
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true },
      { code: "...", swap: false, error: true }
    ];
    document.addEventListener("htmx:beforeSwap", function (e) {
      var d = e.detail;
      if (d.target && d.target.id === "tablet" && d.xhr.responseText.indexOf('id="tablet"') < 0) {
        e.preventDefault();
        window.location.assign(d.xhr.responseURL || window.location.href);
      }
    });
    document.addEventListener("htmx:responseError", function () {
      flashTop("The server could not do that. Reload the page and try again.");
    });
    document.addEventListener("htmx:sendError", function () {
      flashTop("No connection: nothing was sent. Try again.");
    });
    htmx.config.scrollIntoViewOnBoost = false;  // init() scrolls: to a refusal, else to the top
    htmx.onLoad(function (elt) {
      if (elt.id === "tablet") { init(true); } else if (elt.querySelector && elt.querySelector("#tablet")) { init(false); }
    });
  }
  function flashTop(text) {
    var box = document.getElementById("round-watch");
    if (box) { box.className = "t-alert"; box.textContent = text; }
  }

  if (!window.htmx) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { init(false); });
    } else {
      init(false);
    }
  }
})();
