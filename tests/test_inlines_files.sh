#!/bin/sh
# The files the census reads: a header's static inline copied into two
# files is one row; a copy with zlib-compressed debug sections, and the
# program's DWARF moved to a separate debug file (given, or found by
# build-id), give the same table; a stripped copy, a foreign debug file and
# zstd sections this libdw cannot read are refused in one line, exit 2. An
# object file's DWARF is read relocated (as a kernel module's is); split
# DWARF from its .dwo files, a missing one said.
# usage: test_inlines_files.sh INLINES TWOFILE_PROG OTHER_PROG CC TWOFILE_A_C
set -u
inlines=$1 prog=$2 other=$3 cc=$4 source_a=$5
. "$(dirname "$0")/lib.sh"
scratch tmp
# An empty directory of debug files: the machine's own never answer.
mkdir "$tmp/nodebug"
census() { "$inlines" --debug-dir "$tmp/nodebug" --csv "$@"; }

# refused WHAT WORD ARGS...: exit 2, nothing on stdout, one line on stderr
# that holds WORD.
refused() {
	what=$1 word=$2
	shift 2
	out=$(census "$@" 2>"$tmp/err")
	rc=$?
	if [ $rc -ne 2 ] || [ -n "$out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q -- "$word" "$tmp/err"; then
		bad "$what: exit $rc, stdout '$out', stderr: $(cat "$tmp/err")"
	else
		echo "$what refused: $(cat "$tmp/err")"
	fi
}

census "$prog" >"$tmp/want.csv" || bad "two-file program: exit $?"
[ "$(grep -c '^"ic_twofile_mix",' "$tmp/want.csv")" -eq 1 ] || bad "ic_twofile_mix rows: $(grep -c ic_twofile_mix "$tmp/want.csv")"
row=$(grep '^"ic_twofile_mix",' "$tmp/want.csv")
# 3 copies in twofile_a.c and 2 in twofile_b.c, each with code.
case $row in
*'twofile.h",10,5,0,0,'*) echo "one row: $row" ;;
*) bad "ic_twofile_mix: $row, not 5 copies of twofile.h:10" ;;
esac

# same WHAT ARGS...: the table equals the program's own.
same() {
	what=$1
	shift
	if census "$@" >"$tmp/got.csv" 2>"$tmp/err" && cmp -s "$tmp/want.csv" "$tmp/got.csv"; then
		echo "$what: the same table"
	else
		bad "$what: $(cat "$tmp/err"; diff "$tmp/want.csv" "$tmp/got.csv" | head -n 5)"
	fi
}

objcopy --compress-debug-sections=zlib "$prog" "$tmp/zlib" || bad "objcopy zlib"
readelf -S -W "$tmp/zlib" | grep -q '\.debug_info .* C ' || bad "objcopy left .debug_info uncompressed"
same "zlib-compressed debug sections" "$tmp/zlib"

# zstd: read as zlib is where libdw can, else refused naming zstd. binutils
# 2.40 writes it; an objcopy without it is said, not a pass.
if objcopy --compress-debug-sections=zstd "$prog" "$tmp/zstd" 2>"$tmp/objcopy.err"; then
	if census "$tmp/zstd" >"$tmp/got.csv" 2>"$tmp/err"; then
		same "zstd-compressed debug sections" "$tmp/zstd"
	else
		refused "zstd-compressed debug sections" zstd "$tmp/zstd"
	fi
else
	echo "not tested: this objcopy writes no zstd sections ($(head -n 1 "$tmp/objcopy.err"))"
fi

objcopy --only-keep-debug "$prog" "$tmp/prog.debug" && objcopy --strip-debug "$prog" "$tmp/stripped" ||
	bad "objcopy split"
refused "a stripped program" "no DWARF" "$tmp/stripped"
same "--debug FILE" --debug "$tmp/prog.debug" "$tmp/stripped"
id=$(readelf -n "$prog" | awk '/Build ID/ { print $3 }')
[ -n "$id" ] || bad "no build-id in $prog"
mkdir -p "$tmp/debugdir/.build-id/$(echo "$id" | cut -c1-2)"
cp "$tmp/prog.debug" "$tmp/debugdir/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
same "found by build-id" --debug-dir "$tmp/debugdir" "$tmp/stripped"
objcopy --only-keep-debug "$other" "$tmp/other.debug" || bad "objcopy other"
refused "another program's debug file" "build-id" --debug "$tmp/other.debug" "$tmp/stripped"
# One file of the two, as an object file: its three copies, with the same
# bytes as linked (relocation moves addresses, not sizes).
"$cc" -O2 -g -c "$source_a" -o "$tmp/a.o" || bad "$cc -c"
row=$(census "$tmp/a.o" | grep '^"ic_twofile_mix",')
case $row in
*'twofile.h",10,3,0,0,'*) echo "object file: $row" ;;
*) bad "object file: ic_twofile_mix is $row, not 3 copies of twofile.h:10" ;;
esac
# -gsplit-dwarf: the copies are in the .dwo files beside the objects; one
# missing is said, and its copies are not counted.
src_dir=$(cd "$(dirname "$source_a")" && pwd)
(cd "$tmp" && "$cc" -O2 -g -gsplit-dwarf -c "$src_dir/twofile_a.c" -o a_split.o &&
	"$cc" -O2 -g -gsplit-dwarf -c "$src_dir/twofile_b.c" -o b_split.o && "$cc" a_split.o b_split.o -o split) ||
	bad "$cc -gsplit-dwarf"
case $(census "$tmp/split" | grep '^"ic_twofile_mix",') in
*'twofile.h",10,5,0,0,'*) echo "split DWARF: 5 copies" ;;
*) bad "split DWARF: $(census "$tmp/split" 2>&1)" ;;
esac
mv "$tmp/a_split.dwo" "$tmp/a_split.dwo.away"
census "$tmp/split" >"$tmp/got.csv" 2>"$tmp/err"
grep -q '^"ic_twofile_mix",.*twofile.h",10,2,0,0,' "$tmp/got.csv" && grep -q "1 split unit (-gsplit-dwarf) without its .dwo" "$tmp/err" ||
	bad "a missing .dwo: $(cat "$tmp/got.csv" "$tmp/err")"
exit $fail
