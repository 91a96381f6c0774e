# The tables of compare.sh (after read.awk, the shared reader). Reads, per
# input in turn, its meta file (first
# line "#compare-meta", then key<TAB>value lines from run.conf and the JSON
# context) and its ratios.csv, crossover.csv and points.csv (columns read by
# name, any order, absent ones tolerated). Variables: md, csv, dat, gp (the
# files to write) and err (where the one-line error goes when nothing can be
# compared; exit 3 then).
#
# A series is op/layout/order/threads/mode, /filler:F when F > 0, and the
# forms compared. The settings that define a point (compiler, cflags, lock,
# codegen, per_caller, body) come from a row's own column when it has one,
# else from the input's run.conf and context. One that takes several values
# within an input joins the series name, so its values are matched, never
# pooled; one that is constant within each input but differs between them is
# what is being compared: each input's column is labelled with it.

function q(s) {   # a CSV field, quoted when it must be
	if (s !~ /[",]/) return s
	gsub(/"/, "\"\"", s)
	return "\"" s "\""
}
function gpq(s) { gsub(/'/, "''", s); return "'" s "'" }
function num(x) { return x == "" ? "?" : sprintf("%.4f", x) }
function dash(x) { return x == "" ? "—" : x }
function letter(i) { return substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", i, 1) }
function m(k, key) { return ((k, key) in meta) ? meta[k, key] : "" }
function short(s, n) { return length(s) > n ? substr(s, 1, n) : s }

# What an input's run says for a setting that defines a point.
function run_default(k, a,   v) {
	if (a == "compiler") return m(k, "conf.build_cc")
	if (a == "cflags") return m(k, "conf.build_cflags")
	if (a == "lock") { v = m(k, "ctx.lock"); return v != "" ? v : m(k, "conf.build_lock") }
	if (a == "codegen") {
		v = m(k, "ctx.codegen")
		if (v == "" && m(k, "conf.vectorised") != "") v = m(k, "conf.vectorised") == 1 ? "vector" : "general-regs-only"
		return v
	}
	if (a == "per_caller") { v = m(k, "ctx.per_caller"); return v != "" ? v : m(k, "conf.per_caller") }
	if (a == "body") { v = m(k, "ctx.body"); return v != "" ? v : m(k, "conf.body") }
	if (a == "lto") { v = m(k, "ctx.lto"); return v != "" ? v : (m(k, "conf.lto") == 1 ? "callers" : "") }
	return ""
}
function rowval(r, a) { return ((r, a) in rattr && rattr[r, a] != "") ? rattr[r, a] : def[rk[r], a] }

BEGIN { nattr = split("compiler cflags lock codegen per_caller body lto", attr, " "); for (i = 1; i <= nattr; i++) isattr[attr[i]] = 1 }

FNR == 1 {
	sub(/\r$/, "")
	if ($0 == "#compare-meta") { K++; kind = "m"; next }
	kind = ic_header()
	if (kind == "s") kind = "?"   # process ratios: not compared here
	next
}
{ sub(/\r$/, "") }
kind == "m" { t = index($0, "\t"); if (t > 1) meta[K, substr($0, 1, t - 1)] = substr($0, t + 1); next }
kind == "?" || $0 == "" { next }
{
	ic_row()
	base = ic_series()
	R++; rk[R] = K; rkind[R] = kind; rbase[R] = base
	for (i = 1; i <= nattr; i++) if (attr[i] in c) rattr[R, attr[i]] = col(attr[i])
	if (kind == "r") {
		rpair[R] = col("compare") "/" col("baseline"); rn[R] = col("sites") + 0
		rratio[R] = col("ratio"); rlo[R] = col("ratio_ci_lo"); rhi[R] = col("ratio_ci_hi"); rfaster[R] = col("faster")
	} else if (kind == "x") {
		rpair[R] = col("compare") "/" col("baseline")
		rverdict[R] = col("verdict"); rwinner[R] = col("small_n_winner")
		rblo[R] = col("bracket_lo"); rbhi[R] = col("bracket_hi")
		rcounts[R] = dash(col("compare_faster")) " / " dash(col("baseline_faster")) " / " dash(col("unresolved"))
	} else {
		rform[R] = col("form"); rbytes[R] = col("code_bytes_per_site")
	}
}

END {
	for (k = 1; k <= K; k++) {
		dir[k] = m(k, "input.dir"); cpu[k] = m(k, "ctx.cpu_model")
		if (cpu[k] == "") cpu[k] = "CPU not recorded"
		for (i = 1; i <= nattr; i++) def[k, attr[i]] = run_default(k, attr[i])
	}
	# Which point-defining settings vary within an input.
	for (r = 1; r <= R; r++) for (i = 1; i <= nattr; i++) {
		a = attr[i]; v = rowval(r, a); k = rk[r]
		if (!((k, a, v) in vseen)) {
			vseen[k, a, v] = 1; nv[k, a]++
			vals[k, a] = nv[k, a] == 1 ? v : (vals[k, a] == "" ? "(none)" : vals[k, a]) " + " (v == "" ? "(none)" : v)
		}
		if (nv[k, a] > 1) keyed[a] = 1
	}
	for (r = 1; r <= R; r++) {
		id = rbase[r]
		for (i = 1; i <= nattr; i++) if (attr[i] in keyed) { v = rowval(r, attr[i]); id = id "/" attr[i] ":" v; idval[id, attr[i]] = v }
		k = rk[r]
		if (rkind[r] == "p") { if (!((k, id, rform[r]) in bytes)) bytes[k, id, rform[r]] = rbytes[r]; continue }
		key = id " " rpair[r]
		if (rkind[r] == "x") {
			verdict[key, k] = rverdict[r]; winner[key, k] = rwinner[r]; blo[key, k] = rblo[r]; bhi[key, k] = rbhi[r]
			counts[key, k] = rcounts[r]
			continue
		}
		if (rratio[r] == "") continue   # not measured at this N
		if (!(key in kseen)) { kseen[key] = 1; keys[++nk] = key; kid[key] = id; kpair[key] = rpair[r] }
		if (!((key, k) in present)) { present[key, k] = 1; nin[key]++; nser[k]++ }
		n = rn[r]
		if (!((key, n) in nseen)) { nseen[key, n] = 1; nlist[key] = nlist[key] " " n }
		if (!((key, n, k) in ratio)) { nat[key, n]++; npts[k]++ }
		ratio[key, n, k] = rratio[r]; lo[key, n, k] = rlo[r]; hi[key, n, k] = rhi[r]; side[key, n, k] = rfaster[r]
	}

	# The series and N every input holds; the rest is named, one line each.
	ns = 0; nonly = 0
	for (j = 1; j <= nk; j++) {
		key = keys[j]
		if (nin[key] < K) {
			w = ""
			for (k = 1; k <= K; k++) if ((key, k) in present) w = w (w == "" ? "" : ", ") letter(k) " (" dir[k] ")"
			only[++nonly] = "- only in " w ": series " kid[key] " (" kpair[key] ")"
			continue
		}
		m2 = split(substr(nlist[key], 2), nl, " ")
		# Ascending N (insertion sort: a few dozen at most).
		for (a = 2; a <= m2; a++) { v = nl[a] + 0; for (b = a - 1; b >= 1 && nl[b] + 0 > v; b--) nl[b + 1] = nl[b]; nl[b + 1] = v }
		shared = ""; delete part; delete pgroups; np = 0
		for (a = 1; a <= m2; a++) {
			n = nl[a]
			if (nat[key, n] == K) { shared = shared " " n; continue }
			w = ""
			for (k = 1; k <= K; k++) if ((key, n, k) in ratio) w = w (w == "" ? "" : ", ") letter(k)
			if (!(w in part)) { pgroups[++np] = w; part[w] = n } else part[w] = part[w] ", " n
		}
		for (a = 1; a <= np; a++)
			only[++nonly] = "- " kid[key] " (" kpair[key] "): N = " part[pgroups[a]] " only in " pgroups[a]
		if (shared == "") { only[++nonly] = "- " kid[key] " (" kpair[key] "): no N in every input"; continue }
		series[++ns] = key; sn[key] = substr(shared, 2)
	}
	if (ns == 0) {
		w = ""
		for (j = 1; j <= nk; j++) if (nin[keys[j]] == K) w = w (w == "" ? "" : ", ") kid[keys[j]] " " kpair[keys[j]]
		if (w != "") { printf "no comparable series: the series every input has (%s) share no N\n", w > err; exit 3 }
		for (k = 1; k <= K; k++) {
			l = ""; cnt = 0
			for (j = 1; j <= nk; j++) if ((keys[j], k) in present && ++cnt <= 3) l = l (l == "" ? "" : ", ") kid[keys[j]] " " kpair[keys[j]]
			if (cnt > 3) l = l ", ..."
			w = w (k > 1 ? "; " : "") letter(k) " has " (cnt ? l : "no ratios")
		}
		printf "no comparable series: none (with its N and forms) is measured in every input: %s\n", w > err
		exit 3
	}

	# What differs: the machine, then the settings that define a point.
	nset = split("cpu_model compiler cflags lock codegen per_caller body l1i_size l2_size cores smt commit vectorised forms compare/baseline sites layouts_random processes reps min_time counters counter_source", set, " ")
	nd = 0
	for (i = 1; i <= nset; i++) {
		s = set[i]; same = 1; line = ""
		for (k = 1; k <= K; k++) {
			if (s in isattr) v = vals[k, s]
			else if (s == "commit") v = m(k, "conf.build_commit")
			else if (s == "compare/baseline") v = (m(k, "conf.compare") != "" ? m(k, "conf.compare") "/" m(k, "conf.baseline") : "")
			else if (s ~ /^(cpu_model|l1i_size|l2_size|cores|smt|counter_source)$/) v = m(k, "ctx." s)
			else v = m(k, "conf." s)
			if (v == "") v = "—"
			sv[k] = v
			if (k > 1 && v != sv[1]) same = 0
			line = line (k > 1 ? "; " : "") letter(k) " " v
		}
		if (same) continue
		if ((s in isattr) && (s in keyed)) why = " (defines the point; varies within an input, so it is part of the series name)"
		else if (s in isattr) {
			why = " (defines the point: the inputs measured different series, kept apart and labelled, never pooled)"
			for (k = 1; k <= K; k++) tag[k] = tag[k] ", " s " " sv[k]
		} else if (s == "cpu_model" || s == "commit") why = ""
		else if (s ~ /^(layouts_random|processes|reps|min_time)$/) why = " (design: changes the intervals' width, not what is measured)"
		else why = ""
		differs[++nd] = "- **" s "**" why ": " line
	}
	for (k = 1; k <= K; k++) lab[k] = cpu[k] " (" dir[k] ")" tag[k]

	printf "# inlinecost: %d runs compared\n\n", K > md
	print "Each input is labelled by its CPU model (`cpu_model` in its JSON context) and its directory." > md
	print "The ratio is time per call site of the compare form / the baseline form, formed within each run (below 1: the compare form is faster)," > md
	print "with that run's own 95% interval at N; *faster* is the side that run's family-wise band resolves (unresolved: neither)." > md
	print "*sides*: whether the inputs resolve the same side at N. Ratios are compared across runs; times per call site are not" > md
	print "(machines and sessions differ in speed). Nothing is pooled across inputs.\n" > md
	print "| input | CPU model | directory | from | date | commit | series | ratios (series x N) |" > md
	print "|---|---|---|---|---|---|---:|---:|" > md
	for (k = 1; k <= K; k++)
		printf "| %s | %s | %s | %s | %s | %s | %d | %d |\n", letter(k), cpu[k], dir[k], dash(m(k, "input.kind")), dash(m(k, "ctx.date")),
			dash(short(m(k, "conf.build_commit"), 12)), nser[k], npts[k] > md
	print "\n## What differs\n" > md
	if (nd == 0) print "Nothing that run.conf and the JSON context record differs (besides dates and layout seeds)." > md
	for (i = 1; i <= nd; i++) print differs[i] > md
	print "\n## Not in every input\n" > md
	if (nonly == 0) print "Every series and N is in every input." > md
	else print "The tables below hold only the series and N that every input measured; these are left out:\n" > md
	for (i = 1; i <= nonly; i++) print only[i] > md

	print "series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,bracket_lo,bracket_hi,compare,baseline,cpu_model,directory,compiler,cflags,lock,codegen,per_caller,body" > csv
	cols = ns > 1 ? 2 : 1
	printf "# Written by compare.sh for compare/compare.gp.\nic_k = %d\nic_npanels = %d\nic_cols = %d\nic_rows = %d\n", K, ns, cols, int((ns + cols - 1) / cols) > gp
	printf "ic_caption = %s\n", gpq("error bars: each run's own 95% interval at N; bars at the foot: each run's crossover bracket; tables in compare.md") > gp
	printf "array ic_label[%d]\narray ic_title[%d]\narray ic_xo_lo[%d]\narray ic_xo_hi[%d]\n", K, ns, ns * K, ns * K > gp
	printf "array ic_letter[%d]\n", K > gp
	for (k = 1; k <= K; k++) printf "ic_label[%d] = %s\nic_letter[%d] = %s\n", k, gpq(letter(k) ": " lab[k]), k, gpq(letter(k)) > gp

	for (s = 1; s <= ns; s++) {
		key = series[s]; id = kid[key]; split(kpair[key], fp, "/")
		printf "ic_title[%d] = %s\n", s, gpq(id ": " kpair[key]) > gp
		printf "\n## %s: %s / %s\n\n", id, fp[1], fp[2] > md
		hdr = "|"; rule = "|---|"
		for (k = 1; k <= K; k++) { hdr = hdr " | " letter(k) ": " lab[k]; rule = rule "---|" }
		print hdr " |" > md; print rule > md
		line = "| verdict"; for (k = 1; k <= K; k++) line = line " | " dash(verdict[key, k]); print line " |" > md
		line = "| crossover bracket"
		for (k = 1; k <= K; k++) line = line " | " (blo[key, k] != "" ? "(" blo[key, k] ", " bhi[key, k] ")" : "—")
		print line " |" > md
		line = "| small-N winner"; for (k = 1; k <= K; k++) line = line " | " dash(winner[key, k]); print line " |" > md
		line = "| points resolved " fp[1] " / " fp[2] " / neither"
		for (k = 1; k <= K; k++) line = line " | " dash(counts[key, k]); print line " |" > md
		line = "| code bytes per site " fp[1] " / " fp[2]
		for (k = 1; k <= K; k++) line = line " | " dash(bytes[k, id, fp[1]]) " / " dash(bytes[k, id, fp[2]])
		print line " |\n" > md

		hdr = "| N"; rule = "|---:"
		for (k = 1; k <= K; k++) { hdr = hdr " | " letter(k) " ratio [95% CI], faster"; rule = rule "|---" }
		print hdr " | sides |" > md; print rule "|---|" > md
		m2 = split(sn[key], nl, " ")
		for (a = 1; a <= m2; a++) {
			n = nl[a]; line = "| " n; ns_in = 0; nins = 0; nexs = 0
			for (k = 1; k <= K; k++) {
				v = side[key, n, k]
				line = line " | " num(ratio[key, n, k]) " [" num(lo[key, n, k]) "–" num(hi[key, n, k]) "] " dash(v)
				if (v == fp[1]) nins++; else if (v == fp[2]) nexs++
				printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", q(id), n, letter(k), q(lab[k]),
					ratio[key, n, k], lo[key, n, k], hi[key, n, k], v, verdict[key, k], winner[key, k], blo[key, k], bhi[key, k],
					fp[1], fp[2], q(cpu[k]), q(dir[k]), q(pick(k, id, "compiler")), q(pick(k, id, "cflags")), q(pick(k, id, "lock")),
					q(pick(k, id, "codegen")), q(pick(k, id, "per_caller")), q(pick(k, id, "body")) > csv
			}
			agree = (nins == K || nexs == K) ? "same" : (nins > 0 && nexs > 0) ? "**opposite**" : (nins + nexs == 0) ? "—" : "partly resolved"
			print line " | " agree " |" > md
		}
		# Plot data: every N of each input, one block per (series, input).
		nall = split(substr(nlist[key], 2), al, " ")
		for (k = 1; k <= K; k++) {
			i = (s - 1) * K + k
			printf "ic_xo_lo[%d] = %s\nic_xo_hi[%d] = %s\n", i, blo[key, k] != "" ? blo[key, k] : "NaN", i, bhi[key, k] != "" ? bhi[key, k] : "NaN" > gp
			printf "# %s %s, input %s: sites ratio lo hi\n", id, kpair[key], letter(k) > dat
			for (a = 1; a <= nall; a++) if ((key, al[a], k) in ratio)
				printf "%s %s %s %s\n", al[a], ratio[key, al[a], k], lo[key, al[a], k] == "" ? "NaN" : lo[key, al[a], k], hi[key, al[a], k] == "" ? "NaN" : hi[key, al[a], k] > dat
			printf "\n\n" > dat
		}
	}
	print "" > md
}
# A point-defining setting of input k's series id: a keyed one is in the id.
function pick(k, id, a) { return (a in keyed) ? idval[id, a] : vals[k, a] }
