#!/bin/sh
# body_check.sh: does your body (queue/body.h) compile, in every form, before
# anything is built?
#
#   body_check.sh FILE CC [CFLAGS...]
#
# In a temporary directory (removed whatever happens; under $TMPDIR): a gen
# compiled here from gen/gen*.c (the build's may not exist yet) writes one
# site file of each form that includes or calls the body (inline, hint,
# extern, clone); they, the body TU (queue/body_extern.c) and a stub main are
# compiled with CC CFLAGS and linked, so a global defined in every site file
# or a missing IC_BODY_FN is caught too. Pass the build's flags: the
# optimisation flags (-O2, or run.sh --cflags) and -mgeneral-regs-only unless
# the build is --vectorised.
# Exit 0: it compiles and links, nothing printed. Exit 1: one line on stderr,
# the compiler's first error (file:line:col: error: ...), or for the link
# FILE: error: ... naming the symbol. Exit 2: bad usage.
set -u
if [ $# -lt 2 ]; then
	echo "usage: body_check.sh FILE CC [CFLAGS...]" >&2
	exit 2
fi
file=$1 cc=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
case $file in
/*) ;;
*) file=$(pwd)/$file ;;
esac

# fail LINE: the one line, exit 1.
fail() {
	printf '%s\n' "$1" >&2
	exit 1
}

[ -f "$file" ] && [ -r "$file" ] || fail "$file: error: no such readable file"
command -v "$cc" >/dev/null 2>&1 || fail "$file: error: compiler '$cc' not found"
base=$(basename "$file")
name=${base%.c}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ic-body-check.XXXXXX") || fail "$file: error: cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# first_error LOG: the first line that says error, else the first line.
first_error() {
	line=$(grep -m 1 -E '(^|[: ])(fatal )?error[: ]' "$1")
	[ -n "$line" ] || line=$(grep -m 1 . "$1")
	printf '%s' "${line:-$file: error: the compiler failed and said nothing}"
}

# run LOG CMD...: CMD's output into LOG; its exit status.
run() {
	log=$1
	shift
	"$@" >"$log" 2>&1
}

# gen's sources are gen.c and gen_*.c (gen.h), with common/'s two it links.
run "$tmp/gen.log" "$cc" -O1 -w -std=gnu11 -I"$top/common" -I"$here" "$here"/gen.c "$here"/gen_*.c \
	"$top/common/atomic_file.c" "$top/common/kit.c" -o "$tmp/gen" ||
	fail "$top/gen/gen.c: error: cannot build gen to check with: $(first_error "$tmp/gen.log")"

objs=""
for form in inline hint extern clone; do
	# gen refuses a bad name or path in one line (exit 2): that line.
	if ! run "$tmp/$form.log" "$tmp/gen" --sites 2 --form $form --body "$file" -o "$tmp/$form"; then
		fail "$file: error: $(sed -n '1s/^gen: //p' "$tmp/$form.log")"
	fi
	for src in sites_0 point; do
		run "$tmp/$form.log" "$cc" "$@" -std=gnu11 -ffunction-sections -I"$here" -I"$top/queue" \
			-c "$tmp/$form/$src.c" -o "$tmp/$form/$src.o" || fail "$(first_error "$tmp/$form.log")"
		objs="$objs $tmp/$form/$src.o"
	done
done
run "$tmp/body.log" "$cc" "$@" -std=gnu11 -I"$top/queue" "-DIC_BODY_FILE=\"$file\"" \
	"-DIC_BODY_NAME=\"$name\"" -c "$top/queue/body_extern.c" -o "$tmp/body.o" ||
	fail "$(first_error "$tmp/body.log")"
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$tmp/main.c"
# shellcheck disable=SC2086
if ! run "$tmp/link.log" "$cc" "$@" -o "$tmp/a.out" "$tmp/main.c" "$tmp/body.o" $objs; then
	sym=$(grep -m 1 -oE "(undefined reference to|multiple definition of) \`[^']*'" "$tmp/link.log")
	case $sym in
	"undefined reference to \`ic_body_extern'")
		fail "$file: error: link: $sym: IC_BODY_FN is not defined" ;;
	"undefined reference to \`ic_body_setup'")
		fail "$file: error: link: $sym: IC_BODY_SETUP is not defined (an empty one will do)" ;;
	"multiple definition of"*)
		fail "$file: error: link: $sym: make it static (the file is compiled into every site file)" ;;
	?*)
		fail "$file: error: link: $sym" ;;
	*)
		fail "$file: error: link: $(first_error "$tmp/link.log")" ;;
	esac
fi
exit 0
