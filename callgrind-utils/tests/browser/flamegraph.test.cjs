// flamegraph.test.cjs - open a flame graph SVG made from known.folded in
// headless Chromium and use it as a person would: look at the widths,
// hover, click to zoom, reset, search (ignoring case or not), reload a
// zoomed view from its URL, a function's sandwich; then a flame chart (chart.folded) and a graph
// drawn with --minwidth 15%.  Run by ../browser.sh.
//
// known.folded has a total of 100 and the SVG is 1000 px wide with 10 px of
// padding each side, so one count is 9.8 px.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require(path.join(process.env.CGU_BROWSER_MODULES, "playwright-core"));

const out = process.env.CGU_BROWSER_OUT;
const svg = path.join(out, "flamegraph.svg");
let context, page, profile;

before(async () => {
	profile = fs.mkdtempSync(path.join(os.tmpdir(), "cgu-chromium-"));
	context = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		       "--no-first-run", "--disable-background-networking",
		       "--disable-component-update", "--disable-sync"],
		viewport: { width: 1000, height: 400 },
	});
	page = context.pages()[0] || await context.newPage();
	// The SVG must not load anything: fail on any request but the file.
	page.on("request", (r) => {
		if (!r.url().startsWith("file://")) throw new Error("network request: " + r.url());
	});
	await page.goto("file://" + svg);
});

after(async () => {
	await context.close();
	fs.rmSync(profile, { recursive: true, force: true });
});

const frame = (name) => `g.f[data-n="${name}"]`;

async function box(name) {
	const r = await page.locator(frame(name) + " rect").boundingBox();
	return r && { x: r.x, w: r.width };
}

function near(actual, expected, what) {
	assert.ok(Math.abs(actual - expected) < 0.05, `${what}: ${actual} != ${expected}`);
}

async function expectBoxes(want) {
	await page.mouse.move(1, 1);   // no hover outline in the measure
	for (const [name, x, w] of want) {
		const b = await box(name);
		assert.ok(b, `${name} is not visible`);
		near(b.x, x, `${name} x`);
		near(b.w, w, `${name} width`);
	}
}

const unzoomed = [
	["all", 10, 980], ["_start", 10, 196], ["main", 206, 784],
	["parse", 206, 294], ["read", 206, 196], ["render", 500, 490],
	["malloc", 500, 98],
];

test("frames render with widths proportional to cost", async () => {
	assert.equal(await page.locator("g.f").count(), 7);
	await expectBoxes(unzoomed);
	assert.equal(await page.textContent("#title"), "Browser test");
});

test("hover shows function, object, file, inclusive and self cost", async () => {
	await page.hover(frame("render") + " rect");
	assert.equal(await page.textContent("#details"),
		"render | inclusive: 50 samples (50.00%) | self: 40 samples (40.00%)");
	await page.hover(frame("malloc") + " rect");
	assert.equal(await page.textContent("#details"),
		"malloc | object: libc.so.6 | file: malloc.c | " +
		"inclusive: 10 samples (10.00%) | self: 10 samples (10.00%)");
});

test("click zooms into a frame and Reset Zoom restores", async () => {
	assert.equal(await page.isVisible("#unzoom"), false);
	await page.click(frame("parse") + " rect");
	// parse fills the width, read keeps its share of parse, ancestors
	// stretch to full width, everything else is hidden.
	await expectBoxes([["parse", 10, 980], ["read", 10, 980 * 20 / 30],
			   ["main", 10, 980], ["all", 10, 980]]);
	assert.equal(await page.isVisible(frame("render")), false);
	assert.equal(await page.isVisible(frame("_start")), false);
	assert.equal(await page.textContent(frame("parse") + " text"), "parse");
	await page.click("#unzoom");
	assert.equal(await page.isVisible("#unzoom"), false);
	await expectBoxes(unzoomed);
});

async function search(term) {
	page.once("dialog", (d) => d.accept(term));
	await page.click("#search");
}

async function highlighted() {
	return page.$$eval("g.f", (gs) => gs
		.filter((g) => g.querySelector("rect").getAttribute("fill") === "rgb(230,0,230)")
		.map((g) => g.getAttribute("data-n")).sort());
}

test("search highlights matches and shows the matched percentage", async () => {
	await search("^(read|malloc)$");
	assert.deepEqual(await highlighted(), ["malloc", "read"]);
	assert.equal(await page.textContent("#matched"), "Matched: 30.00%");
	// read lies inside parse: the union is counted, not the sum
	await search("^(parse|read)$");
	assert.deepEqual(await highlighted(), ["parse", "read"]);
	assert.equal(await page.textContent("#matched"), "Matched: 30.00%");
	await search("a");
	assert.equal(await page.textContent("#matched"), "Matched: 100.00%");
	await page.screenshot({ path: path.join(out, "flamegraph-search.png") });
	await search("");
	assert.deepEqual(await highlighted(), []);
	await page.screenshot({ path: path.join(out, "flamegraph.png") });
});

test("ic (or Ctrl-I) makes the search ignore case, and back", async () => {
	await search("^MAIN$");
	assert.deepEqual(await highlighted(), []);
	assert.equal(await page.textContent("#matched"), "Matched: 0.00%");
	await page.click("#ic");
	assert.deepEqual(await highlighted(), ["main"]);
	assert.equal(await page.textContent("#matched"), "Matched: 80.00%");
	assert.equal(await page.getAttribute("#ic", "class"), "button on");
	await page.keyboard.press("Control+i");
	assert.deepEqual(await highlighted(), []);
	assert.equal(await page.getAttribute("#ic", "class"), "button");
	await search("");
});

const hash = () => new URL(page.url()).hash;

test("the zoom and the search are in the URL: a reload shows them again", async () => {
	assert.equal(hash(), "");
	await page.click(frame("parse") + " rect");   // main's first child: x 20, depth 2
	assert.equal(hash(), "#x=20&d=2");
	await search("READ");
	await page.click("#ic");
	assert.equal(hash(), "#x=20&d=2&s=READ&ic=1");
	await page.reload();
	await expectBoxes([["parse", 10, 980], ["read", 10, 980 * 20 / 30],
			   ["main", 10, 980], ["all", 10, 980]]);
	assert.equal(await page.isVisible(frame("render")), false);
	assert.deepEqual(await highlighted(), ["read"]);
	assert.equal(await page.getAttribute("#ic", "class"), "button on");
	await page.keyboard.press("Escape");   // unzoom, clear the search
	await page.click("#ic");
	assert.equal(hash(), "");
	await expectBoxes(unzoomed);
	// a shared link, and an old link to a frame this graph does not have
	await page.goto("file://" + svg + "#x=50&d=2");
	await expectBoxes([["render", 10, 980], ["malloc", 10, 980 * 10 / 50]]);
	await page.goto("file://" + svg + "#x=999&d=7");
	await expectBoxes(unzoomed);
});

// The sandwich frames (g.sw) of one row, y the row's top, left to right.
async function sandwichRow(y) {
	await page.mouse.move(1, 1);
	const boxes = [];
	for (const g of await page.locator("g.sw").all()) {
		const r = await g.locator("rect").boundingBox();
		if (Math.abs(r.y - y) < 0.5)
			boxes.push([await g.getAttribute("data-n"), r.x, r.width]);
	}
	return boxes.sort((a, b) => a[1] - b[1]);
}

test("shift-click shows a function's sandwich: callers above, callees below", async () => {
	await page.goto("file://" + svg);
	await page.click(frame("parse") + " rect", { modifiers: ["Shift"] });
	assert.equal(hash(), "#sw=parse");
	assert.equal(await page.isVisible("#frames"), false);
	assert.equal(await page.isVisible("#unzoom"), true);
	assert.equal(await page.textContent("#sandwich-label"),
		"Sandwich of parse: its callers above, its callees below");
	// parse across the width; main, its caller, above; read below
	const mid = (await page.locator('g.sw[data-n="parse"] rect').boundingBox()).y;
	nearRow(await sandwichRow(mid), [["parse", 10, 980]]);
	nearRow(await sandwichRow(mid - 16), [["main", 10, 980]]);
	nearRow(await sandwichRow(mid + 16), [["read", 10, 980 * 20 / 30]]);
	await page.hover('g.sw[data-n="read"] rect');
	assert.equal(await page.textContent("#details"), "read | callee of parse | 20 samples (20.00%)");
	// a click on a sandwich frame shows that function's sandwich
	await page.click('g.sw[data-n="main"] rect');
	assert.equal(hash(), "#sw=main");
	const m = (await page.locator('g.sw[data-n="main"] rect').boundingBox()).y;
	nearRow(await sandwichRow(m), [["main", 10, 980]]);
	nearRow(await sandwichRow(m + 16), [["parse", 10, 980 * 30 / 80], ["render", 10 + 980 * 30 / 80, 980 * 50 / 80]]);
	nearRow(await sandwichRow(m + 32), [["read", 10, 980 * 20 / 80], ["malloc", 10 + 980 * 30 / 80, 980 * 10 / 80]]);
	assert.equal(await page.locator("g.sw").count(), 5);
	await page.screenshot({ path: path.join(out, "flamegraph-sandwich.png") });
	// the sandwich is in the URL: a reload shows it again
	await page.reload();
	assert.equal(await page.locator("g.sw").count(), 5);
	assert.equal(await page.isVisible("#frames"), false);
	await page.click("#unzoom");
	assert.equal(await page.locator("g.sw").count(), 0);
	assert.equal(hash(), "");
	await expectBoxes(unzoomed);
});

// Every frame of depth d as [name, x, width], left to right.
async function row(d) {
	await page.mouse.move(1, 1);
	const boxes = [];
	for (const g of await page.locator(`g.f[data-d="${d}"]`).all()) {
		const r = await g.locator("rect").boundingBox();
		boxes.push([await g.getAttribute("data-n"), r.x, r.width]);
	}
	return boxes.sort((a, b) => a[1] - b[1]);
}

function nearRow(got, want) {
	assert.deepEqual(got.map((b) => b[0]), want.map((b) => b[0]));
	got.forEach((b, i) => {
		near(b[1], want[i][1], `${b[0]} #${i} x`);
		near(b[2], want[i][2], `${b[0]} #${i} width`);
	});
}

test("--flamechart keeps the stacks in input order, merging only neighbours", async () => {
	// chart.folded: main;init 10, main;work;step 30, main;init 20,
	// main;work 20, _start 20 (in that order)
	await page.goto("file://" + path.join(out, "flamechart.svg"));
	assert.equal(await page.textContent("#title"), "Flame Chart");
	nearRow(await row(1), [["main", 10, 784], ["_start", 794, 196]]);
	nearRow(await row(2), [["init", 10, 98], ["work", 108, 294],
			       ["init", 402, 196], ["work", 598, 196]]);
	nearRow(await row(3), [["step", 108, 294]]);
});

test("--minwidth 15% leaves the frames under 15% of the total out of the SVG", async () => {
	await page.goto("file://" + path.join(out, "minwidth.svg"));
	assert.equal(await page.locator("g.f").count(), 6);
	assert.equal(await page.locator(frame("malloc")).count(), 0);
	await expectBoxes(unzoomed.filter((b) => b[0] !== "malloc"));
});

