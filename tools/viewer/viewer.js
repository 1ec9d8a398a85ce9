// impactsim's viewer: draws a run (or a batch's runs) from the data tools/view.py embeds as
// window.IMPACTSIM_DATA, with three.js (vendored in tools/viewer/three). Conventions of the data:
// poses per output time, 3-D bodies as (x, y, z, qw, qx, qy, qz) with z up, planar ones as
// (x, y, theta) in the x-y plane; shapes as strokes in their body's frame [m]; events with their
// contacts' points and normals (unit, from the second body to the first) and normal impulses [N s].
(function () {
  "use strict";
  const data = window.IMPACTSIM_DATA;
  const KIND_COLORS = {impact: "#d62728", zeno: "#9467bd", iwc: "#8c564b", liftoff: "#2ca02c", stick: "#1f77b4",
                       slip: "#ff7f0e", rest: "#7f7f7f", step: "#e377c2", painleve: "#17becf",
                       sleep: "#bcbd22", wake: "#9acd32"};
  const IMPULSIVE = {impact: true, zeno: true, iwc: true, step: true};
  const view = {ready: false, bodies: 0, ghosts: 0, eventMarkers: 0, time: 0, errors: []};
  window.impactsimView = view;

  const root = document.getElementById("scene");
  const renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  root.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1e4);
  if (!data.planar) camera.up.set(0, 0, 1);
  const controls = new THREE.OrbitControls(camera, renderer.domElement);

  // Bodies (and ghosts of other runs) as line strokes in their own frames.
  function strokesObject(strokes, color, opacity) {
    const group = new THREE.Group();
    const material = new THREE.LineBasicMaterial({color: color, transparent: opacity < 1, opacity: opacity});
    for (const stroke of strokes) {
      const points = [];
      for (let k = 0; k < stroke.length; k += 3) points.push(new THREE.Vector3(stroke[k], stroke[k + 1], stroke[k + 2]));
      group.add(new THREE.Line(new THREE.BufferGeometry().setFromPoints(points), material));
    }
    return group;
  }
  const PALETTE = [0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22];
  scene.add(strokesObject(data.world, 0x888888, 1));
  const bodies = data.bodies.map((b, i) => {
    const object = strokesObject(b.strokes, PALETTE[i % PALETTE.length], 1);
    scene.add(object);
    return object;
  });
  const ghosts = (data.ghosts || []).map((g) => {
    const objects = data.bodies.map((b) => strokesObject(b.strokes, g.color, 0.35));
    objects.forEach((o) => scene.add(o));
    return {run: g, objects: objects};
  });
  view.bodies = bodies.length;
  view.ghosts = ghosts.length;

  // The pose of body b at time t from a run's rows (linear between output times, quaternions by slerp).
  function place(object, run, b, t) {
    const times = run.times;
    let i = 0, j = times.length - 1;
    if (t <= times[0]) j = 0;
    else if (t >= times[j]) i = j;
    else {
      while (j - i > 1) {
        const m = (i + j) >> 1;
        if (times[m] <= t) i = m; else j = m;
      }
    }
    const s = j === i ? 0 : (t - times[i]) / (times[j] - times[i]);
    const p = run.poses[i][b], q = run.poses[j][b];
    if (data.planar) {
      object.position.set(p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1]), 0);
      object.rotation.set(0, 0, p[2] + s * (q[2] - p[2]));
    } else {
      object.position.set(p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1]), p[2] + s * (q[2] - p[2]));
      const a = new THREE.Quaternion(p[4], p[5], p[6], p[3]), c = new THREE.Quaternion(q[4], q[5], q[6], q[3]);
      object.quaternion.copy(a.slerp(c, s));
    }
  }

  // Impulse arrows of the latest impulsive event, held for a moment of the timeline.
  const arrows = new THREE.Group();
  scene.add(arrows);
  const labels = document.getElementById("labels");
  const extent = data.extent;
  const tEnd = data.t_end;
  const hold = Math.max(0.01 * tEnd, 1e-9);
  const maxImpulse = Math.max(1e-12, ...data.events.flatMap((e) => e.impulse_n.map(Math.abs)),
                              ...data.events.flatMap((e) => (e.friction || []).map((f) => Math.hypot(...f))));
  function latestImpulsive(t) {
    let found = null;
    for (const e of data.events) {
      if (e.t > t + 1e-12) break;
      if (IMPULSIVE[e.kind] && e.points.length) found = e;
    }
    return found && t - found.t <= hold ? found : null;
  }
  let shownEvent = undefined;
  function showArrows(e) {
    if (e === shownEvent) return;
    shownEvent = e;
    arrows.clear();
    labels.innerHTML = "";
    if (!e) return;
    e.points.forEach((point, k) => {
      const impulse = e.impulse_n[k] || 0;
      const length = 0.05 * extent + 0.3 * extent * Math.abs(impulse) / maxImpulse;
      const normal = new THREE.Vector3(...e.normals[k]).normalize();
      arrows.add(new THREE.ArrowHelper(normal, new THREE.Vector3(...point), length, 0xd62728, 0.2 * length, 0.1 * length));
      const f = new THREE.Vector3(...(e.friction[k] || [0, 0, 0]));
      const friction = f.length();
      if (friction > 1e-12 * maxImpulse) {
        const flength = 0.3 * extent * friction / maxImpulse;
        arrows.add(new THREE.ArrowHelper(f.clone().normalize(), new THREE.Vector3(...point), flength, 0x1f77b4,
                                         0.2 * flength, 0.1 * flength));
      }
      const label = document.createElement("div");
      label.className = "label";
      label.textContent = e.contacts[k];
      label.title = `${e.contacts[k]} at t = ${e.t} s: normal impulse ${impulse.toPrecision(6)} N s (red), ` +
                    `friction impulse ${friction.toPrecision(6)} N s (blue)`;
      label.dataset.x = point[0] + length * normal.x;
      label.dataset.y = point[1] + length * normal.y;
      label.dataset.z = point[2] + length * normal.z;
      labels.appendChild(label);
    });
  }
  function placeLabels() {
    const rect = renderer.domElement.getBoundingClientRect();
    for (const label of labels.children) {
      const v = new THREE.Vector3(+label.dataset.x, +label.dataset.y, +label.dataset.z).project(camera);
      label.style.left = `${(v.x + 1) / 2 * rect.width}px`;
      label.style.top = `${(1 - v.y) / 2 * rect.height}px`;
    }
  }

  // The timeline: energies as curves, events as ticks coloured by kind; a click seeks.
  const timeline = document.getElementById("timeline");
  // An impact's page: the samples' scatter in place of the timeline (a click selects the nearest),
  // and the bodies moved from the impact's pose towards the selected sample's.
  const samples = data.samples;
  const LABEL_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  const labelColor = {};
  let selected = 0;
  function scatterFrame(w, h) {
    const pad = 30;
    const [x0, x1] = [Math.min(...samples.x), Math.max(...samples.x)];
    const [y0, y1] = [Math.min(...samples.y), Math.max(...samples.y)];
    return {px: (v) => pad + (v - x0) / Math.max(x1 - x0, 1e-12) * (w - 2 * pad),
            py: (v) => h - 12 - (v - y0) / Math.max(y1 - y0, 1e-12) * (h - 24)};
  }
  function drawScatter() {
    const w = timeline.clientWidth, h = timeline.clientHeight;
    timeline.width = w;
    timeline.height = h;
    const g = timeline.getContext("2d");
    const f = scatterFrame(w, h);
    samples.x.forEach((x, i) => {
      const label = samples.labels[i];
      if (!(label in labelColor)) labelColor[label] = LABEL_COLORS[Object.keys(labelColor).length % LABEL_COLORS.length];
      g.fillStyle = labelColor[label];
      g.fillRect(f.px(x) - 1, f.py(samples.y[i]) - 1, 2, 2);
    });
    g.strokeStyle = "#000";
    g.strokeRect(f.px(samples.x[selected]) - 4, f.py(samples.y[selected]) - 4, 8, 8);
    g.fillStyle = "#444";
    g.fillText(`${samples.x_name} (across) against ${samples.y_name}, m/s`, 4, 10);
  }
  function selectSample(i) {
    selected = Math.max(0, Math.min(samples.x.length - 1, i));
    data.run.poses[1] = samples.poses[selected];
    setTime(view.time);
  }
  if (samples) {
    view.samples = samples.x.length;
    view.selectSample = selectSample;
    timeline.style.height = "180px";
    timeline.title = "the samples' post-impact normal velocities, coloured by their classes; click to select one";
    for (const id of ["previous", "next", "legend"]) document.getElementById(id).style.display = "none";
  }
  function drawTimeline(t) {
    if (samples) return drawScatter();
    const w = timeline.clientWidth, h = timeline.clientHeight;
    timeline.width = w;
    timeline.height = h;
    const g = timeline.getContext("2d");
    const e = data.energy;
    const total = e.kinetic.map((k, i) => k + e.potential[i]);
    const all = e.kinetic.concat(e.potential, total);
    const lo = Math.min(...all), hi = Math.max(...all);
    const x = (s) => s / tEnd * w, y = (v) => h - 4 - (v - lo) / Math.max(hi - lo, 1e-300) * (h - 8);
    for (const [values, color] of [[e.kinetic, "#1f77b4"], [e.potential, "#2ca02c"], [total, "#000000"]]) {
      g.strokeStyle = color;
      g.beginPath();
      values.forEach((v, i) => (i ? g.lineTo(x(e.t[i]), y(v)) : g.moveTo(x(e.t[i]), y(v))));
      g.stroke();
    }
    for (const ev of data.events) {
      g.fillStyle = KIND_COLORS[ev.kind] || "#000";
      g.fillRect(x(ev.t) - 1, 0, 2, 10);
    }
    g.fillStyle = "rgba(0,0,0,0.6)";
    g.fillRect(x(t) - 1, 0, 2, h);
  }
  view.eventMarkers = data.events.length;

  // Playback.
  const slider = document.getElementById("slider");
  const clock = document.getElementById("clock");
  const info = document.getElementById("info");
  const speed = document.getElementById("speed");
  let playing = false, last = null;
  function setTime(t) {
    t = Math.min(Math.max(t, 0), tEnd);
    view.time = t;
    bodies.forEach((o, b) => place(o, data.run, b, t));
    ghosts.forEach((g) => g.objects.forEach((o, b) => place(o, g.run, b, t)));
    slider.value = Math.round(t / tEnd * 1e6);
    clock.textContent = `t = ${t.toFixed(6)} s`;
    const e = latestImpulsive(t);
    showArrows(e);
    if (samples) {
      info.textContent = `sample ${selected}: ${samples.labels[selected]} (${samples.contacts.join(", ")}); ` +
          `${samples.x_name} ${samples.x[selected].toPrecision(4)}, ${samples.y_name} ${samples.y[selected].toPrecision(4)} m/s; ` +
          `the bodies ${t.toPrecision(3)} s along its post-impact velocity, no force acting`;
      drawTimeline(t);
      return;
    }
    info.textContent = e ? `${e.kind} at t = ${e.t} s: ` +
        e.contacts.map((c, k) => `${c} ${(e.impulse_n[k] || 0).toPrecision(4)} N s` +
                       ` (friction ${Math.hypot(...(e.friction[k] || [0])).toPrecision(4)})`).join(", ") : "";
    drawTimeline(t);
  }
  view.setTime = setTime;
  view.bodyPosition = (b) => bodies[b].position.toArray();
  slider.addEventListener("input", () => setTime(slider.value / 1e6 * tEnd));
  timeline.addEventListener("click", (ev) => {
    if (!samples) return setTime(ev.offsetX / timeline.clientWidth * tEnd);
    const f = scatterFrame(timeline.clientWidth, timeline.clientHeight);
    let best = 0, distance = Infinity;
    samples.x.forEach((x, i) => {
      const d = Math.hypot(f.px(x) - ev.offsetX, f.py(samples.y[i]) - ev.offsetY);
      if (d < distance) [best, distance] = [i, d];
    });
    selectSample(best);
  });
  document.getElementById("play").addEventListener("click", () => {
    playing = !playing;
    if (playing && view.time >= tEnd) setTime(0);
    document.getElementById("play").textContent = playing ? "pause" : "play";
    last = null;
  });
  function stepEvent(direction) {
    const t = view.time;
    const times = data.events.map((e) => e.t);
    const next = direction > 0 ? times.find((s) => s > t + 1e-12) : times.filter((s) => s < t - 1e-12).pop();
    if (next !== undefined) setTime(next);
  }
  document.getElementById("previous").addEventListener("click", () => stepEvent(-1));
  document.getElementById("next").addEventListener("click", () => stepEvent(1));

  function resize() {
    const w = root.clientWidth, h = root.clientHeight;
    renderer.setSize(w, h);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
    drawTimeline(view.time);
  }
  window.addEventListener("resize", resize);

  // The camera frames the bodies' whole motion.
  const c = data.centre;
  controls.target.set(c[0], c[1], c[2]);
  if (data.planar) camera.position.set(c[0], c[1], c[2] + 3.5 * extent);
  else camera.position.set(c[0] + 2.0 * extent, c[1] - 2.5 * extent, c[2] + 1.5 * extent);
  controls.update();

  function frame(now) {
    if (playing) {
      if (last !== null) {
        const t = view.time + (now - last) / 1000 * parseFloat(speed.value);
        setTime(t);
        if (t >= tEnd) {
          playing = false;
          document.getElementById("play").textContent = "play";
        }
      }
      last = now;
    }
    controls.update();
    renderer.render(scene, camera);
    placeLabels();
    requestAnimationFrame(frame);
  }
  resize();
  setTime(0);
  requestAnimationFrame(frame);
  view.ready = true;
})();
