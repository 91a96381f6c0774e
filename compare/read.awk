# The one reader of summarize's tables (ratios.csv, crossover.csv,
# points.csv, process_ratios.csv) for compare.awk and agree.awk: load it
# first (awk -f read.awk -f PROGRAM.awk). Columns are read by name, in any
# order; absent ones read as "".
#
# Per line: on a table's first line call ic_header() (fills c[], returns its
# kind); on every other line ic_row() (fills f[]); then col(NAME),
# ic_series() and ic_build().

# Splits one CSV line into out[1..n]: "..." quoted fields hold commas and
# doubled quotes. Returns n.
function csvsplit(line, out,   n, i, ch, cur, inq) {
	if (index(line, "\"") == 0) return split(line, out, ",")
	split("", out); n = 0; cur = ""; inq = 0
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

# The header of $0: c[name] = column. Returns the table's kind: "s"
# process_ratios, "r" ratios, "x" crossover, "p" points, "?" other.
function ic_header(   n, i) {
	sub(/\r$/, "")
	n = csvsplit($0, f)
	split("", c)
	for (i = 1; i <= n; i++) c[f[i]] = i
	return ("process" in c) ? "s" : ("ratio" in c) ? "r" : ("verdict" in c) ? "x" : ("form" in c) ? "p" : "?"
}

function ic_row() { sub(/\r$/, ""); return csvsplit($0, f) }
function col(name) { return (name in c) ? f[c[name]] : "" }

# A row's series: op/layout/order/threads/mode, /filler:F when F > 0 (a
# run without the filler column ran none).
function ic_series(   s) {
	s = col("op") "/" col("layout") "/" col("order") "/" col("threads") "/" col("mode")
	if (col("filler") + 0 > 0) s = s "/filler:" (col("filler") + 0)
	return s
}

# The build columns summarize writes into every table, and those a run may
# add (codegen). A series of one build is never matched with another's.
function ic_build_keys() { return "compiler cflags body lock lto codegen" }

# A row's build: "key value; ..." over the build columns it has and fills;
# "" for an older run without them.
function ic_build(   n, i, k, s) {
	n = split(ic_build_keys(), k, " ")
	s = ""
	for (i = 1; i <= n; i++)
		if (col(k[i]) != "") s = s (s == "" ? "" : "; ") k[i] " " col(k[i])
	return s
}
