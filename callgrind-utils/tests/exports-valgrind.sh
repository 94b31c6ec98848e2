#!/bin/sh
# exports-valgrind.sh - pprof, firefox and dot on profiles of a real run:
# Valgrind (VALGRIND, default from PATH) profiles tests/prog/stacks-prog.c
# with the options users give: --cache-sim=yes (nine events),
# --compress-strings=no, --collect-stacks=yes (exact stacks beside the
# profile), --separate-threads=yes (a file per thread), several parts
# (--dump-every-bb, in one file or apart), and none (reconstructed
# stacks).  The consumers read them back: go tool pprof (-traces: the
# stacks of every sample, -raw: the sums) and protoc --decode, the
# Firefox Profiler's processed format (python3), Graphviz' dot.  Every
# event's stacks must be those of 'callgrind-utils fold' with the same
# options (the view options too: --all-frames, --names, --focus,
# --ignore, --hide), the sums the profile's totals (fold's under
# --focus, --ignore, --hide).  Skipped (77) without Valgrind; a missing consumer
# skips its checks.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/valgrind-stacks.sh"          # into a work folder
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found"
	exit 77
fi
D=$TEST_DATA
tmp=$work passes=0
. "$here/export-lib.sh"
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
same() {
	if cmp -s "$2" "$3"; then ok; else bad "$1"; diff -u "$2" "$3" | head -10; fi
}
have_go= have_protoc= have_dot=
command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1 && have_go=1
command -v protoc >/dev/null 2>&1 && have_protoc=1
command -v dot >/dev/null 2>&1 && have_dot=1
[ -n "$have_go" ] || echo "SKIP: no go tool pprof (golang-go): pprof read by protoc only"
[ -n "$have_protoc" ] || echo "SKIP: no protoc (protobuf-compiler)"
[ -n "$have_dot" ] || echo "SKIP: no dot (graphviz)"

cp "$D/../prog/stacks-prog.c" .
$CC -g -O1 -pthread -o stacks-prog stacks-prog.c || exit 1
run() {   # run OUT OPTIONS...: profile stacks-prog into OUT
	out=$1
	shift
	"$VALGRIND" --tool=callgrind "$@" --callgrind-out-file="$out" ./stacks-prog \
		>/dev/null 2>valgrind.log || { cat valgrind.log; exit 1; }
}

# totals PROFILE: the sum of its totals: lines, per event, on one line
totals() {
	awk '/^totals:/ { for (i = 2; i <= NF; i++) s[i] += $i; if (NF > n) n = NF }
	     END { for (i = 2; i <= n; i++) printf "%s%s", (i > 2 ? " " : ""), s[i] + 0; print "" }' "$1"
}
events() { awk '/^events:/ { $1 = ""; print; exit }' "$1"; }

# check_exports NAME PROFILE [OPTIONS]: everything read back
check_exports() {
	name=$1 prof=$2
	shift 2
	"$CGU" pprof "$@" -o p.pb.gz "$prof" 2>err || { bad "$name: pprof: $(cat err)"; return; }
	"$CGU" firefox "$@" -o f.json "$prof" 2>err || { bad "$name: firefox: $(cat err)"; return; }
	want_sums=$(totals "$prof")
	case " $* " in
	*" --focus "*|*" --ignore "*|*" --hide "*)     # the stacks kept: fold's sums
		want_sums=$(for ev in $(events "$prof"); do
			"$CGU" fold -e "$ev" "$@" "$prof" | awk '{ s += $NF } END { print s + 0 }'
		done | paste -sd' ') ;;
	esac
	if [ -n "$have_protoc" ]; then
		pprof_decode p.pb.gz >p.txt || bad "$name: protoc --decode"
		[ "$(decoded_sums <p.txt)" = "$want_sums" ] ||
			bad "$name: pprof sums $(decoded_sums <p.txt), totals $want_sums"
	fi
	if [ -n "$have_go" ]; then
		go tool pprof -raw p.pb.gz >raw.txt 2>err || bad "$name: go tool pprof -raw: $(cat err)"
		awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 } s && /:/ {
			for (i = 1; i < NF && $i !~ /:$/; i++) v[i] += $i; if ($i ~ /:$/) { v[i] += $i + 0; if (i > n) n = i } }
			END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), v[i] + 0; print "" }' raw.txt >raw.sums
		[ "$(cat raw.sums)" = "$want_sums" ] ||
			bad "$name: go tool pprof -raw sums $(cat raw.sums), totals $want_sums"
	fi
	i=0
	for ev in $(events "$prof"); do
		sorted_fold -e "$ev" "$@" "$prof" >want
		if [ -n "$have_go" ]; then
			go tool pprof -traces -sample_index="$ev" p.pb.gz 2>err | traces_fold >got
			same "$name: go tool pprof -traces $ev" want got
		elif [ -n "$have_protoc" ]; then
			decoded_fold "$i" <p.txt >got
			same "$name: protoc, $ev" want got
		fi
		firefox_fold f.json "$i" >got || bad "$name: firefox file"
		same "$name: firefox $ev" want got
		i=$((i + 1))
	done
	# dot has no lanes nor start-up frames: a call graph has them all
	case " $* " in *" --per-thread "*|*" --all-frames "*) return ;; esac
	if [ -n "$have_dot" ]; then
		"$CGU" dot "$@" "$prof" >g.dot 2>err || bad "$name: dot: $(cat err)"
		dot -Tsvg g.dot >g.svg 2>err && ! [ -s err ] || bad "$name: dot -Tsvg: $(cat err)"
		case " $* " in
		*" --focus worker "*) grep -q '>main</text>' g.svg && bad "$name: main drawn"
			grep -q '>worker</text>' g.svg || bad "$name: worker not drawn" ;;
		*" --names "*) ;;
		*) grep -q '>\(main\|worker\)</text>' g.svg || bad "$name: neither main nor worker drawn" ;;
		esac
	fi
}

# one run, nine events, exact stacks, uncompressed strings
run cg.out --cache-sim=yes --compress-strings=no --collect-stacks=yes
[ -f cg.out.stacks ] || bad "no cg.out.stacks"
[ "$(events cg.out | wc -w)" = 9 ] || bad "not the nine events of --cache-sim=yes"
check_exports "cache-sim, exact" cg.out
check_exports "cache-sim, reconstructed" cg.out --reconstructed
check_exports "cache-sim, per thread" cg.out --per-thread
# the view options, as fold takes them (the same on both sides)
for how in "" --reconstructed; do
	check_exports "$how --all-frames" cg.out $how --all-frames
	check_exports "$how --names full" cg.out $how --names full
	check_exports "$how --names function" cg.out $how --names function
	check_exports "$how --focus worker" cg.out $how --focus worker
	check_exports "$how --ignore '^fib$' --hide '^spin$'" cg.out $how --ignore '^fib$' --hide '^spin$'
	check_exports "$how --all-frames --hide '^(a|b)$'" cg.out $how --all-frames --hide '^(a|b)$'
done
check_exports "per thread --focus fib" cg.out --per-thread --focus fib
"$CGU" pprof -o p.pb.gz cg.out && [ -n "$have_go" ] && {
	go tool pprof -top p.pb.gz >top.txt 2>&1
	grep -q '^File: stacks-prog$' top.txt || bad "pprof: the program is not the main binary: $(head -1 top.txt)"
	grep -q '^cg.out\|stacks-prog - exact stacks' top.txt || bad "pprof: no comment: $(head -3 top.txt)"
}

# a thread a file, each with its exact stacks
run th.out --separate-threads=yes --collect-stacks=yes
n=0
for f in th.out-0*; do
	case $f in *.stacks) continue ;; esac
	[ -f "$f.stacks" ] || bad "no $f.stacks"
	check_exports "separate-threads $f" "$f"
	n=$((n + 1))
done
[ "$n" -ge 2 ] || bad "only $n thread files"

# several parts: in one file (merged, or the first part), or a file each
run parts.out --collect-stacks=yes --combine-dumps=yes --dump-every-bb=20000
[ "$(grep -c '^part:' parts.out)" -ge 2 ] || bad "one part only"
check_exports "parts, merged" parts.out
"$CGU" pprof --separate-parts -o p.pb.gz parts.out && [ -n "$have_protoc" ] && {
	first=$(awk '/^totals:/ { $1 = ""; sub(/^ /, ""); print; exit }' parts.out)
	[ "$(pprof_decode p.pb.gz | decoded_sums)" = "$first" ] ||
		bad "pprof --separate-parts: not the first part's totals, $first"
}
run dump.out --collect-stacks=yes --dump-every-bb=20000
[ -f dump.out.2 ] || bad "no second dump"
check_exports "dump 2" dump.out.2

# no exact stacks at all: reconstructed from the call graph
run plain.out --cache-sim=yes
check_exports "no stacks" plain.out

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
