# export-lib.sh - sourced by exports-cli.sh and exports-valgrind.sh: read
# the exports back through their consumers and turn what they read into
# folded stacks, to compare with 'callgrind-utils fold'.  Needs $tmp.

# pprof's messages, written here from profile.proto's field numbers (the
# fields callgrind-utils writes), for protoc --decode.
cat >"$tmp/profile.proto" <<'EOF_PROTO'
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1;
  repeated Sample sample = 2;
  repeated Mapping mapping = 3;
  repeated Location location = 4;
  repeated Function function = 5;
  repeated string string_table = 6;
  repeated int64 comment = 13;
  int64 default_sample_type = 14;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Mapping { uint64 id = 1; int64 filename = 5; bool has_functions = 7; bool has_filenames = 8; }
message Location { uint64 id = 1; uint64 mapping_id = 2; repeated Line line = 4; }
message Line { uint64 function_id = 1; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; }
EOF_PROTO

# pprof_decode FILE.pb.gz: protoc's text of the profile on stdout
pprof_decode() {
	gzip -dc "$1" | protoc --proto_path="$tmp" \
		--decode=perftools.profiles.Profile "$tmp/profile.proto"
}

# decoded_fold EVENT-INDEX < TEXT: the samples of protoc's text as folded
# stacks (root first) of the event, sorted
decoded_fold() {
	awk -v ev="$1" '
	function unq(s) { sub(/^[a-z_]+: "/, "", s); sub(/"$/, "", s)
		gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s); return s }
	BEGIN { n = 0 }
	/^sample \{/ { in_s = 1; nl = 0; nv = 0; v = 0; next }
	/^location \{/ { in_l = 1; next }
	/^function \{/ { in_f = 1; next }
	/^string_table:/ { str[ns++] = unq($0); next }
	/^\}/ { if (in_s && v > 0) { st[n] = ""; for (k = nl - 1; k >= 0; k--) st[n] = st[n] (k < nl - 1 ? ";" : "") loc[k]; val[n++] = v }
		in_s = in_l = in_f = 0; next }
	in_s && /^  location_id:/ { loc[nl++] = $2 }
	in_s && /^  value:/ { if (nv++ == ev) v = $2 }
	in_l && /^  id:/ { lid = $2 }
	in_l && /^    function_id:/ { lfn[lid] = $2 }
	in_f && /^  id:/ { fid = $2 }
	in_f && /^  name:/ { fname[fid] = $2 }
	END { for (i = 0; i < n; i++) { m = split(st[i], ids, ";"); s = ""
		for (k = 1; k <= m; k++) s = s (k > 1 ? ";" : "") str[fname[lfn[ids[k]]]]
		print s " " val[i] } }' | LC_ALL=C sort
}

# decoded_sums < TEXT: the sum of the samples' values, per event, on one line
decoded_sums() {
	awk '/^sample \{/ { nv = 0 } /^  value:/ { s[nv++] += $2; if (nv > n) n = nv }
	     END { for (i = 0; i < n; i++) printf "%s%s", (i ? " " : ""), s[i] + 0; print "" }'
}

# traces_fold < 'go tool pprof -traces' output: its stacks as folded stacks
traces_fold() {
	awk '
	function flush() { if (nf && v > 0) { s = ""; for (k = nf - 1; k >= 0; k--) s = s (k < nf - 1 ? ";" : "") f[k]; print s " " v } nf = 0 }
	/^-+\+-+$/ { flush(); in_b = 1; next }
	!in_b { next }
	/^ *[0-9]+ +[^ ]/ { v = $1; l = $0; sub(/^ *[0-9]+ +/, "", l); f[nf++] = l; next }
	{ l = $0; sub(/^ +/, "", l); if (l != "") f[nf++] = l }
	END { flush() }' | LC_ALL=C sort
}

# firefox_fold FILE EVENT-INDEX: the samples of the thread of a Firefox
# Profiler file as folded stacks, sorted; checks the file's shape first
# (every table's columns as long as its length, offsets that point back)
# and exits 1 with a message when it is wrong
cat >"$tmp/firefox-fold.py" <<'EOF_PY'
import json, sys
p = json.load(open(sys.argv[1]))
ev = int(sys.argv[2])
def fail(msg):
    sys.exit("firefox: %s: %s" % (sys.argv[1], msg))
m = p["meta"]
if m["preprocessedProfileVersion"] != 70 or m["categories"][0]["color"] != "grey":
    fail("meta")
sh = p["shared"]
for name, t in list(sh.items()) + [("samples", th["samples"]) for th in p["threads"]]:
    if name == "stringArray":
        continue
    for col, v in t.items():
        if isinstance(v, list) and len(v) != t["length"]:
            fail("%s.%s has %d entries, length %d" % (name, col, len(v), t["length"]))
st, fr, fu, strings = sh["stackTable"], sh["frameTable"], sh["funcTable"], sh["stringArray"]
for i, off in enumerate(st["prefixOffset"]):
    if off < 0 or off > i:
        fail("stack %d: prefixOffset %d" % (i, off))
s = p["threads"][ev]["samples"]
if s["weightType"] != "samples":
    fail("weightType")
out = {}
for stack, w in zip(s["stack"], s["weight"]):
    names = []
    while True:
        names.append(strings[fu["name"][fr["func"][st["frame"][stack]]]])
        off = st["prefixOffset"][stack]
        if off == 0:
            break
        stack -= off
    key = ";".join(reversed(names))
    out[key] = out.get(key, 0) + w
for k in out:
    print(k, out[k])
EOF_PY
firefox_fold() {
	python3 "$tmp/firefox-fold.py" "$1" "$2" | LC_ALL=C sort
}

# sorted_fold ARGS...: callgrind-utils fold ARGS, sorted as the above
sorted_fold() {
	"$CGU" fold "$@" | LC_ALL=C sort
}
