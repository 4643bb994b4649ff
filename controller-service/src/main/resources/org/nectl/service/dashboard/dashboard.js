// nectl dashboard: draws whatever the server's layout frame lists (docs/TELEMETRY.md, "Web dashboard").
// Read-only: this page never sends anything on its WebSocket.
"use strict";

const WINDOW_S = 10;
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const dashboard = { frames: 0, events: 0, charts: {}, layout: null };
window.nectlDashboard = dashboard;

function color(joint) {
  return PALETTE[joint % PALETTE.length];
}

// Axis ticks and legend values: short, and readable for milliradians as for newton-metres.
function number(value) {
  if (value === 0) {
    return "0";
  }
  const magnitude = Math.abs(value);
  return magnitude < 0.01 || magnitude >= 1e5 ? value.toExponential(1) : String(+value.toPrecision(3));
}

function text(id, value) {
  document.getElementById(id).textContent = value;
}

function buildCharts(layout) {
  const container = document.getElementById("charts");
  container.replaceChildren();
  dashboard.charts = {};
  for (const chart of layout.charts) {
    const rows = layout.series.filter(s => s.chart === chart.id);
    if (rows.length === 0) {
      continue;
    }
    const lines = [];
    const plotSeries = [{}];
    rows.forEach((row, r) => {
      const count = row.perJoint ? layout.jointCount : 1;
      for (let k = 0; k < count; k++) {
        lines.push({ key: row.key, joint: row.perJoint ? k : -1 });
        plotSeries.push({
          label: row.perJoint ? row.label + " " + (k + 1) : row.label,
          value: (u, v) => v === null ? "" : number(v),
          stroke: color(row.perJoint ? k : r),
          width: 1.5,
          dash: r > 0 && row.perJoint ? [6, 4] : undefined,
          paths: chart.id === "state" ? uPlot.paths.stepped({ align: 1 }) : undefined,
        });
      }
    });
    const element = document.createElement("div");
    element.className = "chart";
    element.id = "chart-" + chart.id;
    const title = document.createElement("h3");
    title.textContent = chart.title;
    element.appendChild(title);
    container.appendChild(element);
    const state = chart.id === "state";
    const axes = [{}, state
      ? { values: (u, ticks) => ticks.map(v => layout.states[v] || ""), splits: () => layout.states.map((name, i) => i), size: 95 }
      : { values: (u, ticks) => ticks.map(number), size: 70 }];
    const scales = { x: { time: false } };
    if (state) {
      scales.y = { range: [0, layout.states.length - 1] };
    }
    const data = [[]].concat(lines.map(() => []));
    const plot = new uPlot({
      width: 600, height: state ? 200 : 150, series: plotSeries, axes: axes, scales: scales, legend: { live: false },
    }, data, element);
    dashboard.charts[chart.id] = { plot: plot, lines: lines, data: data };
  }
}

function buildTables(layout) {
  const latest = document.getElementById("latest");
  latest.replaceChildren();
  const header = latest.insertRow();
  ["joint", "q", "reference", "\u03c4"].forEach(h => {
    const th = document.createElement("th");
    th.textContent = h;
    header.appendChild(th);
  });
  for (let k = 0; k < layout.jointCount; k++) {
    const row = latest.insertRow();
    row.insertCell().textContent = k + 1;
    ["q", "qRef", "tau"].forEach(key => { row.insertCell().id = key + "-" + (k + 1); });
  }
  const counters = document.getElementById("counters");
  counters.replaceChildren();
  for (const row of layout.series.filter(s => s.chart === null)) {
    const tr = counters.insertRow();
    tr.insertCell().textContent = row.label;
    tr.insertCell().id = "counter-" + row.key;
  }
}

function onSample(frame) {
  dashboard.frames++;
  text("frames", dashboard.frames);
  text("state", frame.state);
  text("controller", frame.controller);
  text("faults", frame.faults);
  text("time", frame.t.toFixed(3));
  const values = frame.values;
  for (let k = 0; k < dashboard.layout.jointCount; k++) {
    text("q-" + (k + 1), values.q[k]);
    text("qRef-" + (k + 1), values.qRef[k]);
    text("tau-" + (k + 1), values.tau[k]);
  }
  for (const row of dashboard.layout.series.filter(s => s.chart === null)) {
    text("counter-" + row.key, values[row.key]);
  }
  for (const chart of Object.values(dashboard.charts)) {
    const data = chart.data;
    data[0].push(frame.t);
    chart.lines.forEach((line, i) => {
      const value = values[line.key];
      data[i + 1].push(line.joint < 0 ? value : value[line.joint]);
    });
    while (data[0].length > 1 && data[0][0] < frame.t - WINDOW_S) {
      data.forEach(column => column.shift());
    }
  }
  scheduleDraw();
}

let drawPending = false;
function scheduleDraw() {
  if (drawPending) {
    return;
  }
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    for (const chart of Object.values(dashboard.charts)) {
      chart.plot.setData(chart.data);
    }
  });
}

function onEvent(frame) {
  dashboard.events++;
  const item = document.createElement("li");
  item.className = frame.kind;
  item.textContent = frame.text;
  const list = document.getElementById("events");
  list.insertBefore(item, list.firstChild);
}

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/stream");
  socket.onopen = () => {
    // The server sends its recent events again to every new connection.
    document.getElementById("events").replaceChildren();
    const status = document.getElementById("connection");
    status.textContent = "live";
    status.className = "connected";
  };
  socket.onclose = event => {
    const status = document.getElementById("connection");
    status.textContent = "disconnected (" + event.code + (event.reason ? " " + event.reason : "") + "), retrying";
    status.className = "disconnected";
    setTimeout(connect, 1000);
  };
  socket.onmessage = message => {
    const frame = JSON.parse(message.data);
    if (frame.type === "layout") {
      dashboard.layout = frame;
      buildCharts(frame);
      buildTables(frame);
    } else if (frame.type === "sample" && dashboard.layout !== null) {
      onSample(frame);
    } else if (frame.type === "event") {
      onEvent(frame);
    }
  };
}

connect();
