#!/bin/bash
# The patch queue: edit the series as git commits.
#
#   scripts/pq.sh create    build/src becomes a git repository: upstream as
#                           the first commit, then one commit per patch
#   scripts/pq.sh export    write the commits after upstream back to
#                           patches/NNNN-subject.patch and rewrite series
#   scripts/pq.sh in-sync   exit 0 when the commits are exactly the series
#
# Export is stable: exporting twice without a change writes byte-identical
# files (fixed 'From 000…' lines, no signature trailer, full blob hashes,
# author dates kept from the patches).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_pin

SRC=${SRC:-$BUILD/src}
PATCHES=${PATCHES:-$TOP/patches}
SERIES=$PATCHES/series
UPSTREAM_TAG=upstream

git_src() { git -C "$SRC" -c core.autocrlf=false "$@"; }

create() {
   [ -d "$SRC/.git" ] && die "$SRC is a patch-queue repository already"
   local tarball=$CACHE/$VG_TARBALL tmp=$SRC.pq
   [ -f "$tarball" ] || die "$tarball is missing: run 'make fetch' first"
   rm -rf "$tmp"; mkdir -p "$tmp"
   tar -xjf "$tarball" -C "$tmp" --strip-components=1
   local digest
   digest=$(prepared_digest "${VALGRIND_SHA256:-$VG_SHA256}" "$SERIES")
   git -C "$tmp" init -q -b main
   printf '/.prepared\n' >> "$tmp/.git/info/exclude"
   # Force-add: the tarball's own .gitignore files name generated files
   # that the tarball nevertheless ships.
   git -C "$tmp" add -A -f
   GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
      git -C "$tmp" -c user.name="Valgrind upstream" -c user.email="upstream@valgrind.invalid" \
          commit -q --no-verify -m "Valgrind $VG_VERSION, unpacked from $VG_TARBALL"
   git -C "$tmp" tag "$UPSTREAM_TAG"
   local p
   while read -r p; do
      git -C "$tmp" -c user.name="patch queue" -c user.email="pq@invalid" \
          am -q --keep-cr --committer-date-is-author-date "$p" ||
         die "git am failed on ${p##*/}; the queue is left in $tmp"
   done < <(series_patches "$SERIES")
   printf '%s\n' "$digest" > "$tmp/.prepared"
   rm -rf "$SRC"
   mv "$tmp" "$SRC"
   say "$SRC: $(git_src rev-list --count "$UPSTREAM_TAG"..HEAD) patch commit(s) on top of tag '$UPSTREAM_TAG'"
}

# Write the queue as patches into DIR (which must exist and be empty).
format_into() {
   local dir=$1
   git_src format-patch -q --no-signature --zero-commit --full-index --no-numbered \
      --no-cover-letter --start-number 1 -o "$dir" "$UPSTREAM_TAG"..HEAD >/dev/null
}

export_series() {
   [ -d "$SRC/.git" ] || die "$SRC is not a patch-queue repository: run 'make pq' first"
   [ -z "$(git_src status --porcelain --untracked-files=no)" ] ||
      die "$SRC has uncommitted changes: commit them (git commit --amend) first"
   local tmp p
   tmp=$(mktemp -d)
   format_into "$tmp"
   # Remove the patches of the old series, then put the new ones in place.
   while read -r p; do rm -f "$p"; done < <(series_patches "$SERIES")
   {
      printf '# Patches applied on top of upstream Valgrind, in order (see README.md).\n'
      for p in "$tmp"/*.patch; do
         [ -e "$p" ] || continue
         printf '%s\n' "${p##*/}"
         mv "$p" "$PATCHES/"
      done
   } > "$SERIES"
   rmdir "$tmp"
   prepared_digest "${VALGRIND_SHA256:-$VG_SHA256}" "$SERIES" > "$SRC/.prepared"
   say "exported $(grep -vc '^#' "$SERIES" || true) patch(es) to ${PATCHES#"$TOP"/}"
}

in_sync() {
   [ -d "$SRC/.git" ] || return 1
   local tmp rc=0 a b
   tmp=$(mktemp -d)
   format_into "$tmp"
   a=$(cd "$tmp" && ls -1 | sort)
   b=$(series_patches "$SERIES" | sed 's|.*/||')
   [ "$a" = "$b" ] || rc=1
   if [ $rc = 0 ]; then
      for p in $a; do cmp -s "$tmp/$p" "$PATCHES/$p" || { rc=1; break; }; done
   fi
   rm -rf "$tmp"
   return $rc
}

case ${1:-} in
   create)  create ;;
   export)  export_series ;;
   in-sync) in_sync ;;
   *)       die "usage: $0 create|export|in-sync" ;;
esac
