#!/bin/sh
# stacks-cli.sh - exact stacks (callgrind --collect-stacks=yes) from the
# command line: fold, flamegraph, speedscope, summary and json use
# PROFILE.stacks when it is there, or a stacks file given as the input or
# with --stacks, and say which stacks they drew; --reconstructed leaves
# them aside.  Bad or stale stacks files exit 2, usage errors 1.
set -u
CGU=${CGU:-./callgrind-utils}
D=${TEST_DATA:-$(dirname "$0")/data}
. "$(dirname "$0")/check-lib.sh"

has() {   # has NAME FIXED-STRING [FILE]: the output holds the string
	if grep -qF -- "$2" "${3:-$tmp/out}"; then
		passes=$((passes + 1))
	else
		echo "FAIL: $1: no '$2' in:"; head -c 600 "${3:-$tmp/out}"; echo
		fails=$((fails + 1))
	fi
}

P=$D/shapes.out
S=$D/shapes.out.stacks
cp "$P" "$tmp/lone.out"      # the same profile without stacks beside it

# --- fold.  shapes.out: main calls a and b, both call x; x costs 100
# when a calls it, and calls leaf (200) when b does.  The exact stacks
# say so; the call graph only knows x's 100 and leaf's 200 came through
# a -> x (100) and b -> x (200), and shares them 1:2: x's 100 as 33 and
# 66 + the remainder 1 to the heavier; leaf's 200 as 66 and 133 + 1,
# which b -> x has no room for (133 of its 200 left): it goes to a.
cat >"$tmp/exact" <<'EXP'
main 10
main;a 1
main;a;x 100
main;b 1
main;b;x;leaf 200
EXP
cat >"$tmp/reconstructed" <<'EXP'
main 10
main;a 1
main;a;x 33
main;a;x;leaf 67
main;b 1
main;b;x 67
main;b;x;leaf 133
EXP
check "fold beside" 0 "$tmp/exact" "$CGU" fold "$P"
check "fold --reconstructed" 0 "$tmp/reconstructed" "$CGU" fold --reconstructed "$P"
check "fold --mode graph" 0 "$tmp/reconstructed" "$CGU" fold --mode graph "$P"
check "fold without stacks" 0 "$tmp/reconstructed" "$CGU" fold "$tmp/lone.out"
check "fold the stacks file" 0 "$tmp/exact" "$CGU" fold "$S"
check "fold --stacks" 0 "$tmp/exact" "$CGU" fold --stacks "$S" "$tmp/lone.out"
check "fold stacks on stdin" 0 "$tmp/exact" sh -c "\"$CGU\" fold - <\"$S\""
check "fold --stacks, profile on stdin" 0 "$tmp/exact" \
	sh -c "\"$CGU\" fold --stacks \"$S\" <\"$P\""
gzip -c "$P" >"$tmp/z.out.gz"
gzip -c "$S" >"$tmp/z.out.stacks.gz"
check "fold gzip'd, beside" 0 "$tmp/exact" "$CGU" fold "$tmp/z.out.gz"
check "fold a gzip'd stacks file" 0 "$tmp/exact" "$CGU" fold "$tmp/z.out.stacks.gz"
# the stacks of the reconstructed graph of a stacks file: its call graph
check "fold --reconstructed stacks file" 0 "$tmp/reconstructed" "$CGU" fold --reconstructed "$S"
printf 'main 1\nmain;a;x 10\nmain;b;x;leaf 20\n' >"$tmp/dr"
check "fold -e Dr" 0 "$tmp/dr" "$CGU" fold -e Dr "$P"
sed 's/^/[thread 1];/' "$tmp/exact" >"$tmp/lanes"
check "fold --per-thread" 0 "$tmp/lanes" "$CGU" fold --per-thread "$P"
sed 's/^main/shapes.c:main [\/bin\/shapes]/; s/;a/;shapes.c:a [\/bin\/shapes]/; s/;b/;shapes.c:b [\/bin\/shapes]/; s/;x/;shapes.c:x [\/bin\/shapes]/; s/;leaf/;shapes.c:leaf [\/bin\/shapes]/' \
	"$tmp/exact" >"$tmp/full"
check "fold --names full" 0 "$tmp/full" "$CGU" fold --names full "$P"
# stdout is the folded lines only; --verbose says which on stderr
check "fold -v" 0 "$tmp/exact" "$CGU" fold -v "$P"
check_err "fold -v exact" "callgrind-utils fold: exact stacks from $S"
check "fold -v reconstructed" 0 "$tmp/reconstructed" "$CGU" fold -v "$tmp/lone.out"
check_err "fold -v reconstructed" "callgrind-utils fold: reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)"
check "fold -v context" 0 - "$CGU" fold -v "$D/context.out"
check_err "fold -v context" "callgrind-utils fold: stacks from caller context (--separate-callers)"

# --- summary: a line says which; x's inclusive cost is 300 either way
cat >"$tmp/sum" <<EXP
# event Ir, total 312, by self
# stacks: exact, from $S
#           self   self%      inclusive   incl%  function
             200  64.10%            200  64.10%  leaf
             100  32.05%            300  96.15%  x
EXP
check "summary exact" 0 "$tmp/sum" "$CGU" summary -n 2 -e Ir "$P"
# every event at once: a self and an inclusive column each
cat >"$tmp/sum" <<EXP
# events Ir Dr, totals 312 31, by self Ir
# stacks: exact, from $S
#             Ir             Dr   self%        incl:Ir        incl:Dr   incl%  function
             200             20  64.10%            200             20  64.10%  leaf
             100             10  32.05%            300             30  96.15%  x
EXP
check "summary exact, every event" 0 "$tmp/sum" "$CGU" summary -n 2 "$P"
check "summary reconstructed" 0 - "$CGU" summary -n 2 --reconstructed "$P"
has "summary none" "# stacks: none, inclusive costs from the call graph (exact ones with callgrind --collect-stacks=yes)"
check "summary of the stacks file" 0 - "$CGU" summary -n 1 "$S"
has "summary of the stacks file" "# stacks: exact, from $S"

# --- json
check "json exact" 0 - "$CGU" json "$P"
has "json exact" '{"stacks":"exact",'
has "json cct node" '{"id":4,"parent":3,"thread":1,"frame":2,"calls":1,"self":[0,0]}'
check "json reconstructed" 0 - "$CGU" json --reconstructed "$P"
has "json none" '{"stacks":"none",'

# --- flamegraph: the subtitle says which, with how to get exact stacks
frame_self() {   # frame_self NAME X DEPTH: data-s of that frame
	grep -o "<g class=\"f\" data-x=\"$2\" [^>]*data-d=\"$3\" data-n=\"$1\"" "$tmp/out" |
		sed 's/.*data-s="\([0-9]*\)".*/\1/'
}
check "flamegraph exact" 0 - "$CGU" flamegraph "$P"
has "flamegraph exact subtitle" '>cmd: ./shapes, event: Ir, exact stacks</text>'
# a (101 wide) is drawn before b: x below a, from 0, has all of x's own
# 100; x below b, from 101, none
[ "$(frame_self x 0 3)" = 100 ] && [ "$(frame_self x 101 3)" = 0 ] &&
	passes=$((passes + 1)) || { echo "FAIL: exact frames of x"; fails=$((fails + 1)); }
check "flamegraph reconstructed" 0 - "$CGU" flamegraph --reconstructed "$P"
has "flamegraph reconstructed subtitle" '>cmd: ./shapes, event: Ir, reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)</text>'
[ "$(frame_self x 0 3)" = 33 ] && [ "$(frame_self x 101 3)" = 67 ] &&
	passes=$((passes + 1)) || { echo "FAIL: reconstructed frames of x"; fails=$((fails + 1)); }
check "flamegraph --subtitle" 0 - "$CGU" flamegraph --subtitle 'run 3' "$P"
has "flamegraph --subtitle keeps the label" '>run 3, exact stacks</text>'
grep -v '^#' "$D/context.out" >"$tmp/context.out"  # no comment: not folded
check "flamegraph context" 0 - "$CGU" flamegraph "$tmp/context.out"
has "flamegraph context subtitle" ', stacks from caller context (--separate-callers)</text>'
check "flamegraph folded" 0 - "$CGU" flamegraph "$D/flame-after.folded"
grep -q 'id="subtitle"' "$tmp/out" && { echo "FAIL: folded input has a subtitle"; fails=$((fails + 1)); }
check "flamegraph stacks on stdin" 0 - sh -c "\"$CGU\" flamegraph - <\"$S\""
has "flamegraph stdin subtitle" '>cmd: ./shapes, event: Ir, exact stacks</text>'
check "flamegraph --per-thread" 0 - "$CGU" flamegraph --per-thread "$P"
has "flamegraph lane" 'data-n="[thread 1]"'
# threads.out: a thread's work enters clone3 without a call; main (60
# inclusive) is drawn 60 wide, not 460
check "flamegraph threads" 0 - "$CGU" flamegraph "$D/threads.out"
has "flamegraph threads main" 'data-w="60" data-s="20" data-d="1" data-n="main"'

# --- speedscope: the name says which
check "speedscope exact" 0 - "$CGU" speedscope -e Ir "$P"
has "speedscope exact name" '"name":"./shapes - exact stacks"'
has "speedscope exact weights" '"weights":[10,1,100,1,200]'
check "speedscope reconstructed" 0 - "$CGU" speedscope --reconstructed "$P"
has "speedscope reconstructed name" '"name":"./shapes - reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)"'

# --- diff of the exact stacks of a run with the estimate of the same run
check "diff exact vs reconstructed" 0 - "$CGU" diff "$P" "$tmp/lone.out"
has "diff subtitle" '>before: exact stacks; after: reconstructed stacks: an estimate (exact ones with callgrind --collect-stacks=yes)</text>'

# --- two parts (--combine-dumps): merged, or apart with --separate-parts
printf 'events: Ir\npart: 1\nfn=main\n1 5\ncfn=f\ncalls=1 1\n1 10\nfn=f\n1 10\ntotals: 15\npart: 2\nfn=main\n1 1\ncfn=g\ncalls=1 1\n1 7\nfn=g\n1 7\ntotals: 8\n' >"$tmp/two.out"
printf '# callgrind stacks\nversion: 1\npart: 1\nevents: Ir\nnodes: 2\nthread: 1\nfn=(1) 0 0 main\nfn=(2) 0 0 f\n0 1 1 5\n1 2 1 10\ntotals: 15\npart: 2\nevents: Ir\nnodes: 2\nthread: 1\nfn=(3) 0 0 g\n0 1 0 1\n1 3 1 7\ntotals: 8\n' >"$tmp/two.out.stacks"
printf 'main 6\nmain;f 10\nmain;g 7\n' >"$tmp/two.merged"
check "parts merged" 0 "$tmp/two.merged" "$CGU" fold "$tmp/two.out"
printf '# part: %s#1\nmain 5\nmain;f 10\n# part: %s#2\nmain 1\nmain;g 7\n' "$tmp/two.out" "$tmp/two.out" >"$tmp/two.apart"
check "parts apart" 0 "$tmp/two.apart" "$CGU" fold --separate-parts "$tmp/two.out"
check "summary of a part" 0 - "$CGU" summary --separate-parts "$tmp/two.out"
[ "$(grep -c '  f$' "$tmp/out")" = 1 ] && [ "$(grep -c '  g$' "$tmp/out")" = 1 ] &&
	passes=$((passes + 1)) || { echo "FAIL: a part's summary lists another part's functions"; fails=$((fails + 1)); }
head -n 11 "$tmp/two.out.stacks" >"$tmp/one.out.stacks"
cp "$tmp/two.out" "$tmp/one.out"
check "a part missing" 2 - "$CGU" fold "$tmp/one.out"
check_err "a part missing, merged" "callgrind-utils: $tmp/one.out.stacks: its nodes give Ir=15 but the profile has 23; expected the stacks file of the same run"
check "a part missing, apart" 2 - "$CGU" fold --separate-parts "$tmp/one.out"
check_err "a part missing, apart" "callgrind-utils: $tmp/one.out.stacks: has fewer parts with nodes than the profiles have parts with costs; expected the stacks of the same run"
# a dump without cost: no cost lines in the profile (whose parser joins
# that part to the next), no nodes in the stacks; parts with a cost pair
printf 'events: Ir\npart: 1\nfn=main\n1 5\ntotals: 5\npart: 2\ntotals: 0\npart: 3\nfn=g\n1 7\ntotals: 7\n' >"$tmp/gap.out"
printf '# callgrind stacks\nversion: 1\npart: 1\nevents: Ir\nnodes: 1\nthread: 1\nfn=(1) 0 0 main\n0 1 1 5\ntotals: 5\npart: 2\nnodes: 0\ntotals:\npart: 3\nnodes: 1\nthread: 1\nfn=(2) 0 0 g\n0 2 1 7\ntotals: 7\n' >"$tmp/gap.out.stacks"
printf '# part: %s#1\nmain 5\n# part: %s#2\ng 7\n' "$tmp/gap.out" "$tmp/gap.out" >"$tmp/gap.apart"
check "a part without cost" 0 "$tmp/gap.apart" "$CGU" fold --separate-parts "$tmp/gap.out"

# --- errors: a stale stacks file (of another run) is refused, exit 2
sed 's/^5 200 20$/5 201 20/; s/^summary: 312 31$/summary: 313 31/; s/^totals: 312 31$/totals: 313 31/' "$P" >"$tmp/stale.out"
cp "$S" "$tmp/stale.out.stacks"
check "stale stacks" 2 - "$CGU" fold "$tmp/stale.out"
check_err "stale stacks message" "callgrind-utils: $tmp/stale.out.stacks: its nodes give Ir=312 but the profile has 313; expected the stacks file of the same run"
check "stale stacks --reconstructed" 0 - "$CGU" fold --reconstructed "$tmp/stale.out"
sed 's/^totals: 312 31$/totals: 312 30/' "$S" >"$tmp/bad.out.stacks"
cp "$P" "$tmp/bad.out"
check "bad stacks file" 2 - "$CGU" flamegraph "$tmp/bad.out"
check_err "bad stacks message" "callgrind-utils: $tmp/bad.out.stacks:27: totals: gives Dr=30 but the node lines add up to 31; expected equal totals (truncated file?)"
head -n 20 "$S" >"$tmp/cut.out.stacks"
cp "$P" "$tmp/cut.out"
check "truncated stacks file" 2 - "$CGU" summary "$tmp/cut.out"
check_err "truncated stacks message" "callgrind-utils: $tmp/cut.out.stacks:20: unexpected end of file: the part at line 6 has no totals: line (truncated file?)"
check "edges of a stacks file" 2 - "$CGU" edges "$S"
check_err "edges of a stacks file message" "callgrind-utils: $S:1: a stacks file (callgrind --collect-stacks=yes), not a profile; expected a Callgrind profile here (fold, flamegraph, speedscope, summary and json read stacks files)"
# usage errors, exit 1
check "--per-thread without stacks" 1 - "$CGU" fold --per-thread "$tmp/lone.out"
check "--per-thread --reconstructed" 1 - "$CGU" flamegraph --per-thread --reconstructed "$P"
check "--stacks --reconstructed" 1 - "$CGU" fold --stacks "$S" --reconstructed "$P"
check "profile and stacks mixed" 1 - "$CGU" fold "$P" "$S"
check "--stacks with a stacks file" 1 - "$CGU" json --stacks "$S" "$S"
check "--stacks missing" 2 - "$CGU" speedscope --stacks "$tmp/none.stacks" "$P"
# two profiles, one with stacks: reconstructed for both, with a warning
check "some with stacks" 0 - "$CGU" fold "$P" "$tmp/lone.out"
check_err "some with stacks warning" "callgrind-utils: warning: $tmp/lone.out has no stacks file beside it; drawing reconstructed stacks (an estimate) for every input"
# --merge on exact stacks: the names lose their levels and contexts, and
# a call of a function already on the path goes back to its first frame
# (main;a;b;a is main;a), as the call graph's levels merge
cat >"$tmp/rec.stacks" <<'EOF_S'
# callgrind stacks
version: 1
cmd: ./rec
part: 1
events: Ir
nodes: 5
truncated: 0

thread: 1
ob=(1) /bin/rec
fl=(1) rec.c
fn=(1) 1 1 main
0 1 1 10
fn=(2) 1 1 a
1 2 1 5
fn=(3) 1 1 b
1 3 2 3
fn=(4) 1 1 a'2
1 4 1 4
fn=(5) 1 1 c'a'2
1 5 1 7

totals: 29
EOF_S
printf '%s\n' "main 10" "main;a 5" "main;a;b 3" "main;a;b;a'2 4" "main;a;b;a'2;c'a'2 7" >"$tmp/rec.plain"
check "stacks with levels, not merged" 0 "$tmp/rec.plain" "$CGU" fold "$tmp/rec.stacks"
printf '%s\n' "main 10" "main;a 9" "main;a;b 3" "main;a;c 7" >"$tmp/rec.all"
check "--merge all on exact stacks" 0 "$tmp/rec.all" "$CGU" fold --merge all "$tmp/rec.stacks"
printf '%s\n' "main 10" "main;a 9" "main;a;b 3" "main;a;c'a 7" >"$tmp/rec.rec"
check "--merge recursion on exact stacks" 0 "$tmp/rec.rec" "$CGU" fold --merge recursion "$tmp/rec.stacks"
printf '%s\n' "main 10" "main;a 5" "main;a;b 3" "main;a;b;a'2 4" "main;a;b;a'2;c 7" >"$tmp/rec.callers"
check "--merge callers on exact stacks" 0 "$tmp/rec.callers" "$CGU" fold --merge callers "$tmp/rec.stacks"
check "flamegraph --merge all on exact stacks" 0 - "$CGU" flamegraph --merge all "$tmp/rec.stacks"
[ "$(grep -c 'data-n="a"' "$tmp/out")" = 1 ] && ! grep -q "data-n=\"[^\"]*'" "$tmp/out" &&
	passes=$((passes + 1)) || { echo "FAIL: flamegraph --merge all: $(grep -o 'data-n="[^"]*"' "$tmp/out" | tr '\n' ' ')"; fails=$((fails + 1)); }
for cmd in fold flamegraph speedscope summary json; do
	check "$cmd --help" 0 - "$CGU" "$cmd" --help
	has "$cmd --help names --reconstructed" "--reconstructed"
done

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
