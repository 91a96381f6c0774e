#!/usr/bin/env bash
# What --resume calls the same code (sweep/conf.c's build_source): the
# content of the tracked files that build the bench. A README edit leaves
# it alone; an uncommitted edit of the code, a new commit of the same
# content aside, changes it; so does the body.
# Usage: test_run_identity.sh PATH/TO/identity_of TOP
set -u
identity_of=$1 top=$2
command -v git >/dev/null || { echo "skip: no git to make a tree with"; exit 77; }
git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "skip: $top is not a git checkout"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

git clone -q "$top" "$tmp/tree" || { echo "cannot clone $top"; exit 1; }
hash_of() { "$identity_of" "$@"; }   # hash_of TREE [BODY]
h0=$(hash_of "$tmp/tree")
[[ $h0 =~ ^[0-9a-f]{16}$ ]] || bad "identity_of gave '$h0'"
echo "a line for readers" >>"$tmp/tree/README.md"
[ "$(hash_of "$tmp/tree")" = "$h0" ] || bad "a README edit changed the identity"
(cd "$tmp/tree" && git -c user.email=t@t -c user.name=t commit -qam readme) || bad "cannot commit"
[ "$(hash_of "$tmp/tree")" = "$h0" ] || bad "a README-only commit changed the identity"
echo "/* an edit */" >>"$tmp/tree/gen/gen.c"
h1=$(hash_of "$tmp/tree")
[ "$h1" != "$h0" ] || bad "an uncommitted edit of gen/gen.c left the identity alone"
(cd "$tmp/tree" && git -c user.email=t@t -c user.name=t commit -qam gen) || bad "cannot commit"
[ "$(hash_of "$tmp/tree")" = "$h1" ] || bad "committing the same content changed the identity"
cp "$top/examples/kref.c" "$tmp/kref.c"
hb=$(hash_of "$tmp/tree" "$tmp/kref.c")
[ "$hb" != "$h1" ] || bad "the body is not part of the identity"
echo "/* an edit */" >>"$tmp/kref.c"
[ "$(hash_of "$tmp/tree" "$tmp/kref.c")" != "$hb" ] || bad "an edit of the body left the identity alone"
[ $fail -eq 0 ] && echo "ok: the identity follows the code's content, not README edits or commits"
exit $fail
