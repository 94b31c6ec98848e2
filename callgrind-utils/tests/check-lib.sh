# check-lib.sh - sourced by the command-line tests (flame-cli.sh,
# stacks-cli.sh): a scratch folder, and the checks that count passes and
# failures.  The sourcing script sets CGU and D, and prints its closing
# line from $passes and $fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

check() {   # check NAME EXPECTED-STATUS EXPECTED-FILE-OR-- CMD...
	name=$1 want=$2 exp=$3
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"
		fails=$((fails + 1)); return
	fi
	if [ "$exp" != - ] && ! diff -u "$exp" "$tmp/out"; then
		echo "FAIL: $name: output differs"; fails=$((fails + 1)); return
	fi
	passes=$((passes + 1))
}

check_err() {   # check_err NAME EXPECTED-STDERR-LINE
	if [ "$(head -n 1 "$tmp/err")" != "$2" ]; then
		echo "FAIL: $1: stderr: $(head -n 1 "$tmp/err")"; echo "  expected: $2"
		fails=$((fails + 1))
	else
		passes=$((passes + 1))
	fi
}
