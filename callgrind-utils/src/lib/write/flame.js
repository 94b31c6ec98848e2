// flame.js - the script inside every flame graph SVG callgrind-utils writes.
// It is embedded at build time (see Makefile.am), so the SVG needs nothing
// from the network.  The C writer puts the numbers on each frame's <g>:
// data-x (offset), data-w (inclusive count), data-s (self count), data-d
// (depth), data-b (baseline count, diff only), data-n/-o/-f (function,
// object, file); the graph-wide numbers sit on <g id="frames">.
//
// The view is kept in the URL's fragment, so that reloading the page or
// sharing its address shows the same: "#x=X&d=D" for the zoomed frame
// (its data-x and data-d), "s=TERM" for the search, "ic=1" when the
// search ignores case.
"use strict";
var cfg, frames, details, matched, unzoombtn, icbtn, fills = [];
var zoomed = null, term = "", ignorecase = false;

function num(el, name) { return parseFloat(el.getAttribute(name)); }

function init() {
	var g = document.getElementById("frames");
	cfg = {
		total: num(g, "data-total"), width: num(g, "data-width"),
		xpad: num(g, "data-xpad"), minwidth: num(g, "data-minwidth"),
		charw: num(g, "data-fontsize") * 0.59,
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
		f.addEventListener("click", function () { zoom(f); });
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
	if (zoomed) p.push("x=" + zoomed.getAttribute("data-x"), "d=" + zoomed.getAttribute("data-d"));
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
	var s = "";
	try { s = decodeURIComponent(p.s || ""); } catch (e) { s = ""; }
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
