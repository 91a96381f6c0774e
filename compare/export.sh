#!/usr/bin/env bash
# Packs a results directory into one file to carry to another machine:
#   ./run.sh export DIR
# writes DIR.tar.gz next to DIR and prints its path. The archive holds DIR
# with every link resolved (DIR/summary.md -> report/summary.md and the like
# become real files, report/ a real directory) and no hidden entries (old
# report sets, temporary files), so nothing in it dangles once unpacked
# elsewhere. ./run.sh compare and agree read the file in place of DIR.
# It packs; it reads nothing it packs.
# Exit 2: bad usage; 1: writing failed.
set -euo pipefail

prog="./run.sh export"
die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

[ $# -eq 1 ] && [ "$1" != --help ] && [ "$1" != -h ] || die "usage: ./run.sh export DIR   (DIR: a results directory of ./run.sh)."
[ -d "$1" ] || die "$1: no such results directory."
src=$(cd -P "$1" && pwd)
# A run is its settings and its processes' raw JSON (what compare reads).
[ -f "$src/run.conf" ] && [ -d "$src/raw" ] || die "$1 is not a results directory of ./run.sh (no run.conf and raw/)."
name=$(basename "$src")
parent=$(dirname "$src")

# Staged beside DIR, so staging links the files instead of copying them;
# tar --hard-dereference then stores each name as a plain file, so a partial
# unpack (only report/, say) or a tool without hard links loses nothing.
stage=$(mktemp -d "$parent/.export.XXXXXX") || fail "cannot write in $parent"
tmp=""
trap 'rm -rf "$stage" ${tmp:+"$tmp"}' EXIT
trap 'exit 130' INT TERM
mkdir "$stage/$name"
# find -L follows the links: a file is carried under every name it has; a
# link to nothing is named and left out.
while IFS= read -r -d '' e; do
	f=${e#? ./}
	if [ "${e%% *}" = l ]; then
		say "left out $f: a link to nothing"
		continue
	fi
	mkdir -p "$stage/$name/$(dirname "$f")"
	ln -L "$src/$f" "$stage/$name/$f" 2>/dev/null || cp -L "$src/$f" "$stage/$name/$f" || fail "cannot stage $src/$f"
done < <(cd "$src" && find -L . -mindepth 1 -name '.*' -prune -o -type f -printf 'f %p\0' -o -type l -printf 'l %p\0')

tmp=$(mktemp "$parent/.$name.tar.gz.XXXXXX")
tar -czf "$tmp" -C "$stage" --hard-dereference --sort=name --owner=0 --group=0 --numeric-owner "$name" || fail "tar failed writing $tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$parent/$name.tar.gz" || fail "cannot move the archive to $parent/$name.tar.gz"
tmp=""
echo "$parent/$name.tar.gz"
