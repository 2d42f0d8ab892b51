// The tenant portal's one script (docs/portal.md): plain JavaScript served as a static file, no
// inline code (the Content-Security-Policy allows scripts from the daemon only). Every page works
// without it; it adds the step past the welcome page, the usage chart and a run's live status.
'use strict';

(function () {
  // After the link exchange: step into the portal from this same-site page (SameSite=Strict).
  var follow = document.querySelector('[data-autofollow]');
  if (follow) window.location.replace(follow.getAttribute('href'));

  // A running run: its events as they commit; the status follows the run's own events.
  var live = document.getElementById('run-status');
  if (live && live.dataset.live) {
    var list = document.getElementById('run-events');
    var source = new EventSource(live.dataset.live);
    var onEvent = function (e) {
      var data = JSON.parse(e.data);
      if (list) {
        var item = document.createElement('li');
        item.textContent = data.timestamp + ' ' + data.kind + (data.node_key ? ' (' + data.node_key + ')' : '');
        list.appendChild(item);
      }
      if (data.status && data.status !== 'created') {
        var badge = document.createElement('span');
        badge.className = 'badge badge-' + data.status.replace(/[^a-z_]/g, '');
        badge.textContent = data.status;
        live.replaceChildren(badge);
        live.dataset.status = data.status;
      }
      if (/^workflow\.run\.(completed|failed|cancelled)$/.test(data.kind)) {
        source.close();
        // The artifacts' links are on the page of an ended run.
        var more = document.createElement('a');
        more.href = window.location.pathname;
        more.textContent = 'Reload for the artifacts';
        live.parentNode.appendChild(document.createTextNode(' '));
        live.parentNode.appendChild(more);
      }
    };
    var kinds = ['created', 'queued', 'promoted', 'started', 'completed', 'failed', 'cancelled', 'waiting', 'paused'];
    kinds.forEach(function (k) {
      source.addEventListener('workflow.run.' + k, onEvent);
    });
    ['started', 'completed', 'failed', 'progress'].forEach(function (k) {
      source.addEventListener('workflow.node.' + k, onEvent);
    });
  }

  // The usage chart: uPlot (loaded before this script), one line per provider and model.
  var chartEl = document.getElementById('usage-chart');
  if (chartEl && chartEl.dataset.chart && window.uPlot) {
    var chart = JSON.parse(chartEl.dataset.chart);
    var palette = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7ea4'];
    var data = [chart.days];
    var series = [{ label: 'day' }];
    chart.series.forEach(function (s, i) {
      data.push(s.cost);
      series.push({ label: s.label, stroke: palette[i % palette.length], width: 2 });
    });
    if (chart.series.length === 0) {
      data.push(
        chart.days.map(function () {
          return 0;
        }),
      );
      series.push({ label: 'no usage', stroke: '#888' });
    }
    var width = function () {
      return Math.max(260, chartEl.clientWidth || 600);
    };
    var plot = new window.uPlot({ width: width(), height: 260, series: series, axes: [{}, { label: 'USD' }] }, data, chartEl);
    window.addEventListener('resize', function () {
      plot.setSize({ width: width(), height: 260 });
    });
  }
})();
