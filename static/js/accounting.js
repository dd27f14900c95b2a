/* Table accounting, progressively enhanced: the tray count's running total under the
   denomination grid (the form works without it; the server counts again). */
(function () {
  "use strict";
  function cents(text) { var n = parseInt(text, 10); return isNaN(n) || n < 0 ? 0 : n; }
  function dollars(c) {
    var whole = Math.floor(c / 100), part = String(c % 100);
    return "$" + whole.toLocaleString("en-US") + "." + (part.length < 2 ? "0" + part : part);
  }
  function update() {
    var out = document.getElementById("tray-total");
    if (!out) { return; }
    var total = 0;
    Array.prototype.forEach.call(document.querySelectorAll("input[data-cents]"), function (input) {
      total += cents(input.getAttribute("data-cents")) * cents(input.value);
    });
    out.textContent = dollars(total);
  }
  document.addEventListener("input", function (e) {
    if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-cents")) { update(); }
  });
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("DOMContentLoaded", update);
  update();
}());
