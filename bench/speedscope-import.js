// Drive speedscope's own Callgrind importer from node, without a browser.
//
// usage: node speedscope-import.js SPEEDSCOPE_PACKAGE_DIR PROFILE
//
// The npm package ships only the web app bundle.  The importer lives in
// it as lazily initialised modules; this driver runs the bundle in a vm
// context with a few browser globals stubbed, after adding one line that
// hands the importer (and the ArrayBuffer-backed text reader speedscope
// uses for files) to us.  It prints the number of frames and the total
// weight so the work cannot be optimised away.
'use strict'
const fs = require('fs')
const path = require('path')
const vm = require('vm')

const [pkg, file] = process.argv.slice(2)
const dir = path.join(pkg, 'dist', 'release')
const bundle = fs.readdirSync(dir).find(f => /^speedscope-.*\.js$/.test(f))
let src = fs.readFileSync(path.join(dir, bundle), 'utf8')

// Find "function NAME(t,e){return new CLASS(t,e).parse()}" inside the
// module that logs "Importing as Callgrind profile", and the reader class
// with splitLines() over chunks.
const call = /Importing as Callgrind profile"\),(\w+)\(a,e\)/.exec(src)
const reader = /(\w+)=class\{constructor\(e\)\{this\.chunks=\[\]/.exec(src)
if (!call || !reader) throw new Error('speedscope bundle layout not recognised')
const importer = call[1]
const readerClass = reader[1]
const hook = 'globalThis.__cg=()=>{' +
  'for(const f of __inits)try{eval(f+"()")}catch(e){};' +
  'return {importer:' + importer + ',Reader:' + readerClass + '}};'
src = src.replace('"use strict";(()=>{', '"use strict";(()=>{' + hook)

const stub = new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : stub),
  apply: () => stub, construct: () => stub,
})
const ctx = {
  console: { log() {}, warn() {}, error() {}, info() {}, time() {}, timeEnd() {} },
  TextDecoder, TextEncoder, Uint8Array, ArrayBuffer, Map, Set, Promise,
  setTimeout, clearTimeout, URL, performance,
  window: stub, document: stub, navigator: stub, location: stub,
  localStorage: stub, requestAnimationFrame: () => 0, addEventListener() {},
}
ctx.globalThis = ctx
// the lazy module initialisers to run: every "X=re(()=>{" in the bundle
ctx.__inits = [...src.matchAll(/[,\s](\w+)=re\(\(\)=>\{/g)].map(m => m[1])
vm.createContext(ctx)
try { vm.runInContext(src, ctx) } catch (e) { /* the UI bootstrap fails */ }

const { importer: importCallgrind, Reader } = ctx.__cg()
const data = fs.readFileSync(file)
const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
const group = importCallgrind(new Reader(ab), path.basename(file))
const profiles = group && (group.profiles || [group])
let weight = 0
for (const p of profiles) weight += p.getTotalWeight ? p.getTotalWeight() : 0
console.log(`profiles ${profiles.length} weight ${weight}`)
