// flame.js - the script inside every flame graph SVG callgrind-utils writes.
// It is embedded at build time (see Makefile.am), so the SVG needs nothing
// from the network.  The C writer puts the numbers on each frame's <g>:
// data-x (offset), data-w (inclusive count), data-s (self count), data-d
// (depth), data-b (baseline count, diff only), data-n/-o/-f (function,
// object, file); the graph-wide numbers sit on <g id="frames">.
//
// A shift-click on a frame shows its function's sandwich instead of the
// graph: the function in one row across the width (its cost, counted
// once where it calls itself), its callers stacked above it and its
// callees below, each path merged by name, drawn from the frames of the
// SVG (so frames left out by --minwidth are left out there too).
//
// The view is kept in the URL's fragment, so that reloading the page or
// sharing its address shows the same: "#x=X&d=D" for the zoomed frame
// (its data-x and data-d), "sw=NAME" for a sandwich, "s=TERM" for the
// search, "ic=1" when the search ignores case.
"use strict";
var cfg, frames, details, matched, unzoombtn, icbtn, fills = [];
var zoomed = null, term = "", ignorecase = false, sandwiched = null;
var parent = null, kids = null;   // of every frame, by index, made once
var SVGNS = "http://www.w3.org/2000/svg";

function num(el, name) { return parseFloat(el.getAttribute(name)); }

function init() {
	var g = document.getElementById("frames");
	cfg = {
		total: num(g, "data-total"), width: num(g, "data-width"),
		xpad: num(g, "data-xpad"), minwidth: num(g, "data-minwidth"),
		charw: num(g, "data-fontsize") * 0.59, fontsize: num(g, "data-fontsize"),
		fh: num(g, "data-fh"), top: num(g, "data-top"), bottom: num(g, "data-bottom"),
		height: num(document.documentElement, "height"),
		unit: g.getAttribute("data-countname"),
		diff: g.getAttribute("data-diff") === "1"
	};
	cfg.fullw = cfg.width - 2 * cfg.xpad;
	frames = Array.prototype.slice.call(g.querySelectorAll("g.f"));
	details = document.getElementById("details");
	matched = document.getElementById("matched");
	unzoombtn = document.getElementById("unzoom");
	icbtn = document.getElementById("ic");
	frames.forEach(function (f, i) {
		fills[i] = f.querySelector("rect").getAttribute("fill");
		f.setAttribute("data-i", i);
		f.addEventListener("mouseover", function () { show(f); });
		f.addEventListener("mouseout", function () { details.textContent = " "; });
		f.addEventListener("click", function (e) {
			if (e.shiftKey) sandwich(f.getAttribute("data-n"));
			else zoom(f);
		});
	});
	unzoombtn.addEventListener("click", unzoom);
	icbtn.addEventListener("click", toggleCase);
	document.getElementById("search").addEventListener("click", ask);
	window.addEventListener("keydown", function (e) {
		if ((e.ctrlKey && e.key === "f") || e.key === "/") {
			e.preventDefault();
			ask();
		} else if (e.ctrlKey && e.key === "i") {
			e.preventDefault();
			toggleCase();
		} else if (e.key === "Escape") {
			unzoom();
			search("");
		}
	});
	window.addEventListener("hashchange", restore);
	restore();
}

// The fragment of the current view ("" for the whole graph, no search).
function fragment() {
	var p = [];
	if (sandwiched !== null) p.push("sw=" + encodeURIComponent(sandwiched));
	else if (zoomed) p.push("x=" + zoomed.getAttribute("data-x"), "d=" + zoomed.getAttribute("data-d"));
	if (term !== "") p.push("s=" + encodeURIComponent(term));
	if (ignorecase) p.push("ic=1");
	return p.join("&");
}

// Put the view in the address without a new history entry.
function save() {
	var f = fragment(), url = f ? "#" + f : location.pathname + location.search;
	if (("#" + f) === location.hash || (!f && !location.hash)) return;
	try { history.replaceState(null, "", url); }
	catch (e) { location.hash = f; }
}

// Show the view the fragment names; a frame it names that is not in this
// graph (an old link) leaves the graph unzoomed.
function restore() {
	var p = {};
	location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
		var i = kv.indexOf("=");
		if (i > 0) p[kv.slice(0, i)] = kv.slice(i + 1);
	});
	ignorecase = p.ic === "1";
	icbtn.classList.toggle("on", ignorecase);
	var z = null;
	frames.forEach(function (f) {
		if (f.getAttribute("data-x") === p.x && f.getAttribute("data-d") === p.d) z = f;
	});
	if (z) zoom(z);
	else unzoom();
	var s = "", sw = "";
	try { s = decodeURIComponent(p.s || ""); sw = decodeURIComponent(p.sw || ""); }
	catch (e) { s = sw = ""; }
	if (sw !== "" && frames.some(function (f) { return f.getAttribute("data-n") === sw; }))
		sandwich(sw);
	search(s);
}

function pct(v) { return (cfg.total ? 100 * v / cfg.total : 0).toFixed(2) + "%"; }

function count(v) { return v.toLocaleString("en-US") + " " + cfg.unit; }

function describe(f) {
	var parts = [f.getAttribute("data-n")];
	if (f.hasAttribute("data-o")) parts.push("object: " + f.getAttribute("data-o"));
	if (f.hasAttribute("data-f")) parts.push("file: " + f.getAttribute("data-f"));
	var w = num(f, "data-w");
	if (cfg.diff) {
		var b = num(f, "data-b"), d = w - b;
		parts.push("before: " + count(b), "after: " + count(w),
			   "delta: " + (d >= 0 ? "+" : "") + count(d));
	} else {
		parts.push("inclusive: " + count(w) + " (" + pct(w) + ")",
			   "self: " + count(num(f, "data-s")) + " (" + pct(num(f, "data-s")) + ")");
	}
	return parts.join(" | ");
}

function show(f) { details.textContent = describe(f); }

function fit(f, w) {
	var t = f.querySelector("text"), name = f.getAttribute("data-n");
	var n = Math.floor((w - 6) / cfg.charw);
	if (n < 3) t.textContent = "";
	else if (name.length <= n) t.textContent = name;
	else t.textContent = name.slice(0, n - 2) + "..";
}

function place(f, x, w) {
	var r = f.querySelector("rect"), t = f.querySelector("text");
	r.setAttribute("x", x.toFixed(2));
	r.setAttribute("width", w.toFixed(2));
	t.setAttribute("x", (x + 3).toFixed(2));
	f.classList.remove("hide");
	fit(f, w);
}

function hide(f) { f.classList.add("hide"); }

function zoom(z) {
	var zx = num(z, "data-x"), zw = num(z, "data-w"), zd = num(z, "data-d");
	var ratio = cfg.fullw / zw;
	zoomed = z;
	unzoombtn.classList.remove("hide");
	frames.forEach(function (f) {
		var x = num(f, "data-x"), w = num(f, "data-w"), d = num(f, "data-d");
		f.classList.remove("parent");
		if (d < zd && x <= zx && x + w >= zx + zw) {
			place(f, cfg.xpad, cfg.fullw);
			f.classList.add("parent");
		} else if (d >= zd && x >= zx && x + w <= zx + zw && w * ratio >= cfg.minwidth) {
			place(f, cfg.xpad + (x - zx) * ratio, w * ratio);
		} else {
			hide(f);
		}
	});
	save();
}

function unzoom() {
	zoomed = null;
	leaveSandwich();
	unzoombtn.classList.add("hide");
	frames.forEach(function (f) {
		f.classList.remove("parent");
		place(f, cfg.xpad + num(f, "data-x") * cfg.fullw / cfg.total,
		      num(f, "data-w") * cfg.fullw / cfg.total);
	});
	save();
}

// The "ic" button (and Ctrl-I): the search ignores case, or not.
function toggleCase() {
	ignorecase = !ignorecase;
	icbtn.classList.toggle("on", ignorecase);
	search(term);
}

function ask() {
	var term = window.prompt("Search (regular expression), empty to clear:", "");
	if (term !== null) search(term);
}

// Sum of the union of the matched ranges, so that a match inside another
// match is not counted twice.
function covered(ranges) {
	ranges.sort(function (a, b) { return a[0] - b[0]; });
	var sum = 0, end = -1;
	ranges.forEach(function (r) {
		if (r[0] >= end) { sum += r[1] - r[0]; end = r[1]; }
		else if (r[1] > end) { sum += r[1] - end; end = r[1]; }
	});
	return sum;
}

function search(t) {
	var re = null, ranges = [];
	if (t !== "") {
		try { re = new RegExp(t, ignorecase ? "i" : ""); }
		catch (e) { matched.textContent = "Bad regular expression"; return; }
	}
	term = t;
	frames.forEach(function (f, i) {
		var hit = re !== null && re.test(f.getAttribute("data-n"));
		f.querySelector("rect").setAttribute("fill", hit ? "rgb(230,0,230)" : fills[i]);
		f.classList.toggle("match", hit);
		if (hit) ranges.push([num(f, "data-x"), num(f, "data-x") + num(f, "data-w")]);
	});
	matched.textContent = re === null ? " " : "Matched: " + pct(covered(ranges));
	save();
}

window.addEventListener("load", init);

// ------------------------------------------------------------ sandwich

// The parent of every frame (-1 for the root) and its children: the
// frame one level down whose range holds its start.
function links() {
	if (parent) return;
	var rows = [];
	frames.forEach(function (f, i) {
		var d = num(f, "data-d");
		(rows[d] = rows[d] || []).push(i);
	});
	rows.forEach(function (r) {
		r.sort(function (a, b) { return num(frames[a], "data-x") - num(frames[b], "data-x"); });
	});
	parent = [];
	kids = frames.map(function () { return []; });
	frames.forEach(function (f, i) {
		var up = rows[num(f, "data-d") - 1] || [], x = num(f, "data-x");
		var lo = 0, hi = up.length - 1, p = -1;
		while (lo <= hi) {
			var m = (lo + hi) >> 1;
			if (num(frames[up[m]], "data-x") <= x) { p = up[m]; lo = m + 1; }
			else hi = m - 1;
		}
		parent[i] = p;
		if (p >= 0) kids[p].push(i);
	});
}

// A tree of names with a width each: paths merged by name.
function node() { return { w: 0, kids: {}, names: [] }; }
function child(t, name) {
	if (!t.kids[name]) { t.kids[name] = node(); t.names.push(name); }
	return t.kids[name];
}

// The frames of function fn that no other frame of fn holds, and the
// callers' and callees' trees of those.
function sandwichOf(fn) {
	var up = node(), down = node(), total = 0;
	frames.forEach(function (f, i) {
		if (f.getAttribute("data-n") !== fn) return;
		for (var a = parent[i]; a >= 0; a = parent[a])
			if (frames[a].getAttribute("data-n") === fn) return;
		var w = num(f, "data-w"), t = up;
		total += w;
		for (a = parent[i]; a >= 0 && parent[a] >= 0; a = parent[a]) {
			t = child(t, frames[a].getAttribute("data-n"));
			t.w += w;
		}
		var todo = [[i, down]];
		while (todo.length) {
			var it = todo.pop();
			kids[it[0]].forEach(function (c) {
				var ct = child(it[1], frames[c].getAttribute("data-n"));
				ct.w += num(frames[c], "data-w");
				todo.push([c, ct]);
			});
		}
	});
	return { up: up, down: down, total: total };
}

function depthOf(t) {
	var d = 0;
	t.names.forEach(function (n) { d = Math.max(d, 1 + depthOf(t.kids[n])); });
	return d;
}

function fillOf(name) {
	for (var i = 0; i < frames.length; i++)
		if (frames[i].getAttribute("data-n") === name) return fills[i];
	return "rgb(210,210,210)";
}

// One frame of the sandwich: role is "caller of F", "F" or "callee of F".
function sandwichFrame(g, name, w, x, y, width, role) {
	var f = document.createElementNS(SVGNS, "g"), r = document.createElementNS(SVGNS, "rect");
	var t = document.createElementNS(SVGNS, "text");
	f.setAttribute("class", "sw");
	f.setAttribute("data-n", name);
	f.setAttribute("data-w", w);
	r.setAttribute("y", y.toFixed(2));
	r.setAttribute("height", cfg.fh - 1);
	r.setAttribute("fill", fillOf(name));
	r.setAttribute("rx", 2);
	r.setAttribute("ry", 2);
	t.setAttribute("y", (y + cfg.fh * 0.5 + cfg.fontsize * 0.35).toFixed(2));
	f.appendChild(r);
	f.appendChild(t);
	g.appendChild(f);
	place(f, x, width);
	f.addEventListener("mouseover", function () {
		details.textContent = name + " | " + role + " | " + count(w) + " (" + pct(w) + ")";
	});
	f.addEventListener("mouseout", function () { details.textContent = " "; });
	f.addEventListener("click", function () { sandwich(name); });
}

// Draw tree t's rows from y0, dir rows at a time (-1 up, 1 down).
function sandwichRows(g, t, x0, scale, y0, dir, role) {
	var x = x0;
	t.names.slice().sort().forEach(function (n) {
		var c = t.kids[n], w = c.w * scale;
		if (w >= cfg.minwidth) {
			sandwichFrame(g, n, c.w, x, y0, w, role);
			sandwichRows(g, c, x, scale, y0 + dir * cfg.fh, dir, role);
		}
		x += w;
	});
}

// The SVG's height, and what sits at its bottom, for h pixels.
function resize(h) {
	var svg = document.documentElement, fs = cfg.fontsize;
	svg.setAttribute("height", h.toFixed(0));
	svg.setAttribute("viewBox", "0 0 " + cfg.width.toFixed(0) + " " + h.toFixed(0));
	svg.querySelector("rect").setAttribute("height", h.toFixed(0));
	details.setAttribute("y", (h - fs).toFixed(2));
	matched.setAttribute("y", (h - fs).toFixed(2));
}

function sandwich(fn) {
	links();
	leaveSandwich();
	var s = sandwichOf(fn);
	if (!s.total) return;
	var above = depthOf(s.up), below = depthOf(s.down);
	var mid = cfg.top + above * cfg.fh, scale = cfg.fullw / s.total;
	var g = document.createElementNS(SVGNS, "g");
	g.setAttribute("id", "sandwich");
	g.setAttribute("data-n", fn);
	document.getElementById("frames").classList.add("hide");
	document.documentElement.appendChild(g);
	resize(Math.max(cfg.height, mid + (below + 1) * cfg.fh + cfg.bottom));
	var label = document.createElementNS(SVGNS, "text");
	label.setAttribute("id", "sandwich-label");
	label.setAttribute("x", (cfg.width / 2).toFixed(2));
	label.setAttribute("y", (cfg.top - cfg.fontsize * 0.6).toFixed(2));
	label.setAttribute("text-anchor", "middle");
	label.textContent = "Sandwich of " + fn + ": its callers above, its callees below";
	g.appendChild(label);
	sandwichFrame(g, fn, s.total, cfg.xpad, mid, cfg.fullw, fn);
	sandwichRows(g, s.up, cfg.xpad, scale, mid - cfg.fh, -1, "caller of " + fn);
	sandwichRows(g, s.down, cfg.xpad, scale, mid + cfg.fh, 1, "callee of " + fn);
	sandwiched = fn;
	unzoombtn.classList.remove("hide");
	save();
}

function leaveSandwich() {
	var g = document.getElementById("sandwich");
	if (!g) return;
	g.parentNode.removeChild(g);
	document.getElementById("frames").classList.remove("hide");
	resize(cfg.height);
	sandwiched = null;
}
