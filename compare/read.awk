# The one reader of runs, for compare.sh in both its modes: awk -f read.awk
# -f compare.awk (or agree.awk), every input's files twice, pass=2 before
# the second time. Per input: a meta line ("#compare-meta", the input's
# directory and where it came from, TAB-separated), its run.conf (today's
# key=value or an older one's declare -p) and benchmark.json (its context)
# when it has them, and summarize's ratios, crossover and points tables,
# read by column name in any order (absent ones read as "").
#
# A series is op/layout/order/threads/mode, /filler:F when F > 0, and the
# forms compared. The settings that define a point (compiler, cflags, lock,
# codegen, per_caller, body, lto) come from a row's own column when it has
# one, else from the input's run.conf and context. One that takes several
# values within an input joins the series name, so its values are matched,
# never pooled; one that is constant within each input but differs between
# them is what compare compares. agree.awk sets by_build instead: there a
# series is one build's (the build columns its rows fill), never matched
# with another build's, as repeats of one sweep are matched.
#
# For the writers' END, per series key (keys[1..nk] as first seen; kid[]
# its name, kpair[] its forms "compare/baseline"), N (nlist[key], as first
# seen) and input k = 1..K: ratio, lo, hi, side, se, tq, rc [key, n, k];
# verdict, winner, blo, bhi, bracket, counts, states [key, k]; per series
# name, form and input the code bytes (bytes[k, id, form]) and per N the
# time (pe, pl, ph [id, form, n, k]); meta[k, "conf." NAME or "ctx." NAME],
# dir[k], from[k]; vals[k, setting] and keyed[setting].

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
# = column): "r" ratios, "x" crossover, "p" points, "?".
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
	return ("ratio" in c) ? "r" : ("verdict" in c) ? "x" : ("form" in c) ? "p" : "?"
}

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
function fmt(x) { return x == "" ? "?" : sprintf("%.3f", x) }
function none(x) { return x == "" ? "(none)" : x }
function m(k, key) { return meta[k, key] }

# A setting that defines a point, for the current row of input k: its own
# column, else what the input's run recorded (context, else run.conf).
function setting(k, a,   v) {
	if (col(a) != "") return col(a)
	if (a == "compiler") return m(k, "conf.build_cc")
	if (a == "cflags") return m(k, "conf.build_cflags")
	if (m(k, "ctx." a) != "") return m(k, "ctx." a)
	v = m(k, a == "lock" ? "conf.build_lock" : a == "codegen" ? "conf.vectorised" : "conf." a)
	if (a == "codegen" && v != "") return v == 1 ? "vector" : "general-regs-only"
	if (a == "lto") return v == 1 ? "callers" : ""
	return v
}

BEGIN {
	nattr = split("compiler cflags lock codegen per_caller body lto", attr, " ")
	for (i = 1; i <= nattr; i++) isattr[attr[i]] = 1
}

FNR == 1 && /^#compare-meta\t/ {
	K = ++inputs[pass]
	split($0, mf, "\t")
	dir[K] = mf[2]
	from[K] = mf[3]
	next
}
FNR == 1 { kind = ic_header() }
FNR == 1 && kind !~ /^[cj]$/ { next }   # a table's header
kind == "c" { ic_conf(meta, K SUBSEP "conf."); next }
kind == "j" && ic_context(meta, K SUBSEP "ctx.") < 0 { nextfile }
kind == "j" { next }
kind !~ /^[rxp]$/ || /^[ \t\r]*$/ { next }
{ sub(/\r$/, ""); csvsplit($0, f) }
# First pass: which settings vary within an input (vals: each input's
# values, " + " between).
pass != 2 {
	for (i = 1; i <= nattr; i++) {
		a = attr[i]
		v = setting(K, a)
		if ((K, a, v) in seen) continue
		seen[K, a, v] = 1
		vals[K, a] = ++nv[K, a] == 1 ? v : none(vals[K, a]) " + " none(v)
		if (nv[K, a] > 1) keyed[a] = 1
	}
	next
}
# Second pass: each row under its series.
by_build {
	b = ic_build()
	id = ic_series() (b == "" ? "" : " [" b "]")
}
!by_build {
	id = ic_series()
	for (i = 1; i <= nattr; i++) {
		if (!(attr[i] in keyed)) continue
		v = setting(K, attr[i])
		id = id "/" attr[i] ":" v
		idval[id, attr[i]] = v
	}
}
{
	pair = col("compare") "/" col("baseline")
	key = id " " pair
}
kind == "p" {
	n = col("sites") + 0
	if (!((K, id, col("form")) in bytes)) bytes[K, id, col("form")] = col("code_bytes_per_site")
	pk[id, col("form"), n] = 1
	pe[id, col("form"), n, K] = col("ns_per_op")
	pl[id, col("form"), n, K] = col("ns_ci_lo")
	ph[id, col("form"), n, K] = col("ns_ci_hi")
	next
}
kind == "x" {
	verdict[key, K] = col("verdict")
	winner[key, K] = col("small_n_winner")
	blo[key, K] = col("bracket_lo")
	bhi[key, K] = col("bracket_hi")
	if (blo[key, K] != "") bracket[key, K] = "(" blo[key, K] ", " bhi[key, K] ")"
	counts[key, K] = dash(col("compare_faster")) " / " dash(col("baseline_faster")) " / " dash(col("unresolved"))
	if (col("states") == 2)
		states[key, K] = sprintf("two states: %s in %s, %s in %s processes", fmt(col("state1_ratio")),
			col("state1_processes"), fmt(col("state2_ratio")), col("state2_processes"))
	next
}
col("ratio") == "" { next }   # not measured at this N
{
	if (!(key in kid)) {
		keys[++nk] = key
		kid[key] = id
		kpair[key] = pair
	}
	if (!((key, K) in present)) {
		present[key, K] = 1
		nin[key]++
		nser[K]++
	}
	n = col("sites") + 0
	if (!nmin || n < nmin) nmin = n   # the charts' N range, as the style pads it
	if (n > nmax) nmax = n
	if (!((key, n) in nat)) nlist[key] = nlist[key] " " n
	if (!((key, n, K) in ratio)) {
		nat[key, n]++
		npts[K]++
	}
	ratio[key, n, K] = col("ratio")
	lo[key, n, K] = col("ratio_ci_lo")
	hi[key, n, K] = col("ratio_ci_hi")
	side[key, n, K] = col("faster")
	se[key, n, K] = col("log_se")
	tq[key, n, K] = col("t_975")
	rc[key, n, K] = col("replicate_cover")
}
