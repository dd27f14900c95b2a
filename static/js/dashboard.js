/* The pit-boss dashboard's charts (Chart.js, vendored): hold % and win by table for the chosen
   period, and by gaming day for 30 days; the hold report draws its rows the same way
   (#chart-report, key "report", without polling: #charts has no data-url there). The first figures come with the page (json_script
   "chart-data"); every 60 seconds the JSON endpoint in #charts[data-url] is polled and the
   datasets are updated in place (not while the tab is hidden). Win arrives in integer cents and
   hold % as a decimal string: numbers are made only for plotting, and tooltips write the
   dollars from the cents. The floor above refreshes itself with htmx, not from here. */
(function () {
  "use strict";

  var root = document.getElementById("charts");
  var initial = document.getElementById("chart-data");
  if (!root || !initial || typeof Chart === "undefined") { return; }

  var css = getComputedStyle(document.documentElement);
  function colour(name, fallback) { return (css.getPropertyValue(name) || "").trim() || fallback; }
  var FELT = colour("--felt", "#0b5d3b");
  var LOSE = colour("--lose", "#b3261e");
  var GOLD = "#b07d12";
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function dollars(cents) {
    if (cents === null || cents === undefined) { return "—"; }
    var sign = cents < 0 ? "-" : "";
    var abs = Math.abs(cents);
    var whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    var part = (abs % 100).toString().padStart(2, "0");
    return sign + "$" + whole + "." + part;
  }
  // No bar where the handle is under the pages' minimum for a hold % (they write "n/a").
  function small(data, i) {
    var handle = data.handle_cents ? data.handle_cents[i] : null;
    return handle !== null && handle !== undefined && Math.abs(handle) < (state.hold_min_handle_cents || 0);
  }
  function holdNumbers(list, data) {
    return list.map(function (h, i) { return h === null || (data && small(data, i)) ? null : Number(h); });
  }
  function winDollars(list) { return list.map(function (c) { return c === null ? null : c / 100; }); }
  function barColours(list) {
    return list.map(function (h) { return h !== null && Number(h) < 0 ? LOSE : FELT; });
  }

  // Both axes put zero at the same height (a bar above the line and a point above it both
  // mean "the house won"): each gets TICKS intervals of a round step, the same number of them
  // below zero.
  var TICKS = 6;
  function extent(values) {
    var lo = 0, hi = 0;
    values.forEach(function (v) { if (v !== null && !isNaN(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    return [lo, hi === lo ? lo + 1 : hi];
  }
  function niceStep(raw) {
    if (!(raw > 0)) { return 1; }
    var magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) { if (steps[i] * magnitude >= raw) { return steps[i] * magnitude; } }
    return 10 * magnitude;
  }
  function alignZero(config) {
    var axes = { hold: extent(config.data.datasets[0].data), win: extent(config.data.datasets[1].data) };
    var below = 0;
    Object.keys(axes).forEach(function (k) {
      var e = axes[k];
      below = Math.max(below, Math.ceil(TICKS * -e[0] / (e[1] - e[0])));
    });
    below = Math.min(below, TICKS - 1);
    Object.keys(axes).forEach(function (k) {
      var e = axes[k];
      var step = niceStep(Math.max(e[1] / (TICKS - below), below ? -e[0] / below : 0));
      var scale = config.options.scales[k];
      scale.min = -below * step;
      scale.max = (TICKS - below) * step;
      scale.ticks.stepSize = step;
    });
  }

  // The legend names the bars' two colours (a bar is green when the house won, red when it
  // lost), not the first bar's colour, and the win line's; each entry toggles its dataset.
  function legendItems(chart) {
    function item(text, colour, index, extra) {
      var hidden = !chart.isDatasetVisible(index);
      return Object.assign({ text: text, fillStyle: colour, strokeStyle: colour, lineWidth: 0,
        hidden: hidden, datasetIndex: index }, extra || {});
    }
    return [
      item("Hold %: house won", FELT, 0),
      item("Hold %: house lost", LOSE, 0),
      item("Win ($)", GOLD, 1, { pointStyle: "rectRot" })
    ];
  }

  function options(series) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: reduceMotion ? false : { duration: 400 },
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { position: "bottom", labels: { generateLabels: legendItems } },
        tooltip: {
          callbacks: {
            label: function (ctx) {
              var data = series();
              if (ctx.dataset.yAxisID === "win") { return "Win " + dollars(data.win_cents[ctx.dataIndex]); }
              var hold = data.hold_percent[ctx.dataIndex];
              if (hold !== null && small(data, ctx.dataIndex)) {
                return "Hold n/a (handle " + dollars(data.handle_cents[ctx.dataIndex]) + ")";
              }
              return "Hold " + (hold === null ? "— (no handle)" : hold + "%");
            }
          }
        }
      },
      scales: {
        hold: { type: "linear", position: "left", title: { display: true, text: "Hold %" },
                ticks: { callback: function (v) { return Number(v.toFixed(2)) + "%"; } } },
        win: { type: "linear", position: "right", title: { display: true, text: "Win ($)" },
               grid: { drawOnChartArea: false },
               ticks: { callback: function (v) { return dollars(Math.round(v * 100)).replace(/\.00$/, ""); } } }
      }
    };
  }

  function datasets(data, winAsPoints) {
    return [
      { type: "bar", label: "Hold %", yAxisID: "hold", data: holdNumbers(data.hold_percent, data),
        backgroundColor: barColours(data.hold_percent), borderRadius: 4, maxBarThickness: 48, order: 2 },
      { type: "line", label: "Win ($)", yAxisID: "win", data: winDollars(data.win_cents),
        borderColor: GOLD, backgroundColor: GOLD, pointRadius: winAsPoints ? 6 : 2,
        pointStyle: winAsPoints ? "rectRot" : "circle", showLine: !winAsPoints, tension: 0.2, order: 1 }
    ];
  }

  var state = JSON.parse(initial.textContent);
  function dayLabel(iso) { return iso.slice(5); } // MM-DD: the year is in the heading

  var charts = {};
  function build(id, key, labels, winAsPoints) {
    var canvas = document.getElementById(id);
    if (!canvas) { return; }
    var config = {
      data: { labels: labels(state[key]), datasets: datasets(state[key], winAsPoints) },
      options: options(function () { return state[key]; })
    };
    alignZero(config);
    charts[key] = new Chart(canvas, config);
  }
  build("chart-by-table", "by_table", function (d) { return d.labels; }, true);
  build("chart-by-day", "by_day", function (d) { return d.labels.map(dayLabel); }, false);
  build("chart-report", "report", function (d) { return d.labels; }, true);
  if (!root.getAttribute("data-url")) { return; } // the hold report: drawn once, not polled

  function update(key, labels) {
    var chart = charts[key];
    if (!chart) { return; }
    var data = state[key];
    chart.data.labels = labels(data);
    chart.data.datasets[0].data = holdNumbers(data.hold_percent, data);
    chart.data.datasets[0].backgroundColor = barColours(data.hold_percent);
    chart.data.datasets[1].data = winDollars(data.win_cents);
    alignZero(chart);
    chart.update();
  }

  var status = document.getElementById("chart-status");
  function say(text) { if (status) { status.textContent = text; } }

  function refresh() {
    if (document.hidden) { return; }
    fetch(root.getAttribute("data-url"), {
      credentials: "same-origin",
      headers: { Accept: "application/json" }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.ok || type.indexOf("application/json") !== 0) {
        throw new Error(response.status === 403 || response.redirected ? "signed out" : "HTTP " + response.status);
      }
      return response.json();
    }).then(function (data) {
      state = data;
      update("by_table", function (d) { return d.labels; });
      update("by_day", function (d) { return d.labels.map(dayLabel); });
      say("Charts updated " + new Date().toLocaleTimeString());
    }).catch(function (err) {
      say("Charts not updated (" + err.message + "): the figures shown may be old.");
    });
  }

  var seconds = parseInt(root.getAttribute("data-refresh-seconds"), 10) || 60;
  window.setInterval(refresh, seconds * 1000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });
})();
