#!/bin/sh
# gen-graph.sh - pathological call graphs for the bounds tests, made at
# test time instead of checked in:
#   gen-graph.sh chain N     f0 -> f1 -> ... -> f(N-1), each 1 Ir of its
#                            own: a call chain N deep
#   gen-graph.sh ladder L    L levels of two functions, a<k> and b<k>, each
#                            calling both of level k+1; the 2^50 Ir of
#                            each of the last level's two are shared
#                            evenly, so there are 2^L paths to them
#   gen-graph.sh folded-chain N   the folded stacks of a chain N deep:
#                            "f0 1", "f0;f1 1", ... (N lines)
case $1 in
chain)
	awk -v n="$2" 'BEGIN { print "events: Ir"
		for (i = 0; i < n; i++) {
			printf "fn=f%d\n0 1\n", i
			if (i < n - 1)
				printf "cfn=f%d\ncalls=1 0\n0 %d\n", i + 1, n - 1 - i
		} }' ;;
ladder)
	awk -v l="$2" 'BEGIN { c = 2 ^ 50; print "events: Ir"
		for (k = 0; k < l; k++)
			for (x = 0; x < 2; x++) {
				printf "fn=%s%d\n", x ? "b" : "a", k
				if (k == l - 1) {
					printf "0 %.0f\n", c
					continue
				}
				for (y = 0; y < 2; y++)
					printf "cfn=%s%d\ncalls=1 0\n0 %.0f\n",
						y ? "b" : "a", k + 1, c / 2
			} }' ;;
folded-chain)
	awk -v n="$2" 'BEGIN { s = "f0"; print s " 1"
		for (i = 1; i < n; i++) { s = s ";f" i; print s " 1" } }' ;;
*)
	echo "usage: $0 chain N | ladder L | folded-chain N" >&2
	exit 1 ;;
esac
