# The one reader of a run's files for compare.awk and agree.awk (awk -f
# read.awk -f PROGRAM.awk): summarize's tables, by column name in any order
# (absent ones read as ""), an older run.conf and benchmark.json's context.
#
# On a file's first line call ic_header(), which returns its kind; then per
# table row ic_row() and col(NAME), ic_series(), ic_build(); per line of
# run.conf or benchmark.json (the first too) ic_conf() or ic_context().

# Splits one CSV line into out[1..n]: "..." quoted fields hold commas and
# doubled quotes. Returns n.
function csvsplit(line, out,   n, i, ch, cur, inq) {
	if (index(line, "\"") == 0)
		return split(line, out, ",")
	split("", out)
	n = inq = 0
	cur = ""
	for (i = 1; i <= length(line); i++) {
		ch = substr(line, i, 1)
		if (inq) {
			if (ch != "\"") cur = cur ch
			else if (substr(line, i + 1, 1) == "\"") { cur = cur ch; i++ }
			else inq = 0
		} else if (ch == "\"") inq = 1
		else if (ch == ",") { out[++n] = cur; cur = "" }
		else cur = cur ch
	}
	out[++n] = cur
	return n
}

# The kind of file $0 opens: "c" run.conf, "j" JSON; a table's (with c[name]
# = column): "s" process_ratios, "r" ratios, "x" crossover, "p" points, "?".
function ic_header(   n, i) {
	sub(/\r$/, "")
	if ($0 ~ /^(declare -|[a-z_]+=)/)
		return "c"
	if ($0 ~ /^[ \t]*\{/)
		return "j"
	n = csvsplit($0, f)
	split("", c)
	for (i = 1; i <= n; i++)
		c[f[i]] = i
	return ("process" in c) ? "s" : ("ratio" in c) ? "r" : ("verdict" in c) ? "x" : ("form" in c) ? "p" : "?"
}

function ic_row() { sub(/\r$/, ""); return csvsplit($0, f) }
function col(name) { return (name in c) ? f[c[name]] : "" }

# A row's series: op/layout/order/threads/mode, /filler:F when F > 0 (a
# run without the filler column ran none).
function ic_series(   s) {
	s = col("op") "/" col("layout") "/" col("order") "/" col("threads") "/" col("mode")
	if (col("filler") + 0 > 0)
		s = s "/filler:" (col("filler") + 0)
	return s
}

# A row's build: "key value; ..." over the build columns it fills (codegen
# only some runs add); "" for an older run without them. A series of one
# build is never matched with another's.
function ic_build(   n, i, k, s) {
	n = split("compiler cflags body lock lto codegen", k, " ")
	s = ""
	for (i = 1; i <= n; i++)
		if (col(k[i]) != "")
			s = s (s == "" ? "" : "; ") k[i] " " col(k[i])
	return s
}

# s with each backslash escape replaced by the character it escapes.
function ic_unescape(s,   o) {
	o = ""
	while (match(s, /\\./)) {
		o = o substr(s, 1, RSTART - 1) substr(s, RSTART + 1, 1)
		s = substr(s, RSTART + 2)
	}
	return o s
}

# run.conf is key=value lines (an older run.sh wrote `declare -p` output),
# from another machine: parsed, never sourced. A setting into a[p NAME].
function ic_conf(a, p,   v) {
	sub(/\r$/, "")
	if (match($0, /^[a-z_]+=/)) {
		a[p substr($0, 1, RLENGTH - 1)] = substr($0, RLENGTH + 1)
		return
	}
	if (!match($0, /^declare -[-a-zA-Z]* [A-Za-z_][A-Za-z0-9_]*="/) || $0 !~ /"$/)
		return
	v = substr($0, RLENGTH + 1)
	a[p substr($3, 1, index($3, "=") - 1)] = ic_unescape(substr(v, 1, length(v) - 1))
}

# benchmark.json, pretty or compact: each member with a string or plain
# value (null read as "") into a[p KEY], up to the benchmarks, which need
# not be read: returns -1 there. The context comes first.
function ic_context(a, p,   s, done, kv, k, v) {
	s = $0
	if (done = match(s, /"benchmarks"[ \t]*:/))
		s = substr(s, 1, RSTART - 1)
	while (match(s, /"([^"\\]|\\.)*"[ \t]*:[ \t]*("([^"\\]|\\.)*"|[^][{},:" \t\r]+)/)) {
		kv = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		match(kv, /^"([^"\\]|\\.)*"/)
		k = substr(kv, 2, RLENGTH - 2)
		v = substr(kv, RLENGTH + 1)
		sub(/^[ \t]*:[ \t]*/, "", v)
		v = v == "null" ? "" : v ~ /^"/ ? ic_unescape(substr(v, 2, length(v) - 2)) : v
		gsub(/^[ \t]+|[ \t]+$/, "", v)   # /proc/cpuinfo pads some model names
		a[p ic_unescape(k)] = v
	}
	return done ? -1 : 0
}

# For the writers: a CSV field, quoted when it must be; "—" for nothing.
function q(s) {
	if (s !~ /[",]/)
		return s
	gsub(/"/, "\"\"", s)
	return "\"" s "\""
}
function dash(x) { return x == "" ? "—" : x }
