// The node runtime fixture (tests/e2e/run.sh, run_node): a recursive
// function called often enough that V8 compiles it, checking its result.
'use strict';

function fib(n) {
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

let sum = 0;
for (let i = 0; i < 30; i++)
   sum += fib(18);
if (sum !== 30 * 2584) {
   console.error(`sum = ${sum}, not ${30 * 2584}`);
   process.exit(1);
}
