# compare.sh's tables (after read.awk, which reads the inputs). Variables:
# md, csv, dat, gp (the files to write) and err (the one-line error when
# nothing can be compared: exit 3).

function gpq(s) { gsub(/'/, "''", s); return "'" s "'" }
function num(x) { return x == "" ? "?" : sprintf("%.4f", x) }
function nan(x) { return x == "" ? "NaN" : x }
function letter(k) { return substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k, 1) }
function join(list, x) { return list == "" ? x : list ", " x }
# What a run built: build_source today (a hash of the measured sources),
# the git commit in an older run.conf.
function source(k) { return m(k, "conf.build_source") != "" ? m(k, "conf.build_source") : m(k, "conf.build_commit") }

# A row of a series' first table: label, then each input's a[key, k].
function mdrow(label, a, key,   k, line) {
	line = "| " label
	for (k = 1; k <= K; k++) line = line " | " dash(a[key, k])
	print line " |" > md
}

END {
	# The series and N every input holds; the rest is named, one line each
	# (N that only some inputs hold, grouped by those inputs).
	for (j = 1; j <= nk; j++) {
		key = keys[j]
		what = kid[key] " (" kpair[key] ")"
		if (nin[key] < K) {
			w = ""
			for (k = 1; k <= K; k++)
				if ((key, k) in present) w = join(w, letter(k) " (" dir[k] ")")
			only[++nonly] = "- only in " w ": series " what
			continue
		}
		nn = split(substr(nlist[key], 2), nl, " ")
		for (a = 2; a <= nn; a++)   # ascending N: insertion sort, a few dozen at most
			for (b = a; b > 1 && nl[b - 1] > nl[b]; b--) {
				t = nl[b]
				nl[b] = nl[b - 1]
				nl[b - 1] = t
			}
		shared = ""
		np = 0
		split("", part)
		for (a = 1; a <= nn; a++) {
			if (nat[key, nl[a]] == K) {
				shared = shared " " nl[a]
				continue
			}
			w = ""
			for (k = 1; k <= K; k++)
				if ((key, nl[a], k) in ratio) w = join(w, letter(k))
			if (!(w in part)) group[++np] = w
			part[w] = join(part[w], nl[a])
		}
		for (a = 1; a <= np; a++)
			only[++nonly] = "- " what ": N = " part[group[a]] " only in " group[a]
		if (shared == "") {
			only[++nonly] = "- " what ": no N in every input"
			continue
		}
		series[++ns] = key
		sn[key] = substr(shared, 2)
	}
	if (ns == 0) {
		w = ""
		for (k = 1; k <= K; k++) {
			l = ""
			cnt = 0
			for (j = 1; j <= nk; j++)
				if ((keys[j], k) in present && ++cnt <= 3) l = join(l, kid[keys[j]] " " kpair[keys[j]])
			w = w (k > 1 ? "; " : "") letter(k) " has " (cnt == 0 ? "no ratios" : cnt > 3 ? l ", ..." : l)
		}
		printf "no comparable series: none (with its N and forms) is measured in every input: %s\n", w > err
		exit 3
	}

	printf "# inlinecost: %d runs compared\n\n", K > md
	print "Each input is labelled by its CPU model (`cpu_model` in its JSON context) and its directory." > md
	print "The ratio is time per call site of the compare form / the baseline form, formed within each run (below 1: the compare form is faster)," > md
	print "with that run's own 95% interval at N; *faster* is the side that run's family-wise band resolves (unresolved: neither)." > md
	print "*sides*: whether the inputs resolve the same side at N. Ratios are compared across runs; times per call site are not" > md
	print "(machines and sessions differ in speed). Nothing is pooled across inputs.\n" > md
	print "| input | CPU model | directory | from | date | source | series | ratios (series x N) |" > md
	print "|---|---|---|---|---|---|---:|---:|" > md
	for (k = 1; k <= K; k++) {
		cpu[k] = m(k, "ctx.cpu_model") == "" ? "CPU not recorded" : m(k, "ctx.cpu_model")
		printf "| %s | %s | %s | %s | %s | %s | %d | %d |\n", letter(k), cpu[k], dir[k], dash(from[k]),
			dash(m(k, "ctx.date")), dash(substr(source(k), 1, 12)), nser[k], npts[k] > md
	}

	# What differs: the machine, then the settings that define a point (one
	# that differs only between the inputs labels their columns: tag).
	print "\n## What differs\n" > md
	nset = split("cpu_model compiler cflags lock codegen per_caller body l1i_size l2_size cores smt source codegens vectorised forms compare/baseline sites layouts_random processes reps min_time counters counter_source", set, " ")
	nd = 0
	for (i = 1; i <= nset; i++) {
		s = set[i]
		line = ""
		same = 1
		for (k = 1; k <= K; k++) {
			if (s in isattr) v = vals[k, s]
			else if (s == "source") v = source(k)
			else if (s == "compare/baseline") v = m(k, "conf.compare") == "" ? "" : m(k, "conf.compare") "/" m(k, "conf.baseline")
			else if (s ~ /^(cpu_model|l1i_size|l2_size|cores|smt|counter_source)$/) v = m(k, "ctx." s)
			else v = m(k, "conf." s)
			sv[k] = dash(v)
			if (sv[k] != sv[1]) same = 0
			line = line (k > 1 ? "; " : "") letter(k) " " sv[k]
		}
		if (same) continue
		why = ""
		if (s in keyed) {
			why = " (defines the point; varies within an input, so it is part of the series name)"
		} else if (s in isattr) {
			why = " (defines the point: the inputs measured different series, kept apart and labelled, never pooled)"
			for (k = 1; k <= K; k++) tag[k] = tag[k] ", " s " " sv[k]
		} else if (s ~ /^(layouts_random|processes|reps|min_time)$/) {
			why = " (design: changes the intervals' width, not what is measured)"
		}
		print "- **" s "**" why ": " line > md
		nd++
	}
	if (nd == 0) print "Nothing that run.conf and the JSON context record differs (besides dates and layout seeds)." > md
	print "\n## Not in every input\n" > md
	if (nonly == 0) print "Every series and N is in every input." > md
	else print "The tables below hold only the series and N that every input measured; these are left out:\n" > md
	for (i = 1; i <= nonly; i++) print only[i] > md

	print "series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,bracket_lo,bracket_hi,compare,baseline,cpu_model,directory,compiler,cflags,lock,codegen,per_caller,body" > csv
	cols = ns > 1 ? 2 : 1
	printf "# Written by compare.sh for compare/compare.gp.\nic_k = %d\nic_npanels = %d\nic_cols = %d\nic_rows = %d\n", K, ns, cols, int((ns + cols - 1) / cols) > gp
	printf "ic_sites_min = %d\nic_sites_max = %d\n", nmin, nmax > gp
	printf "ic_caption = %s\n", gpq("error bars: each run's own 95% interval at N; bars at the foot: each run's crossover bracket; tables in compare.md") > gp
	printf "array ic_label[%d]\narray ic_title[%d]\narray ic_xo_lo[%d]\narray ic_xo_hi[%d]\narray ic_letter[%d]\n", K, ns, ns * K, ns * K, K > gp
	for (k = 1; k <= K; k++) {
		lab[k] = cpu[k] " (" dir[k] ")" tag[k]
		printf "ic_label[%d] = %s\nic_letter[%d] = %s\n", k, gpq(letter(k) ": " lab[k]), k, gpq(letter(k)) > gp
	}

	for (s = 1; s <= ns; s++) {
		key = series[s]
		id = kid[key]
		split(kpair[key], fp, "/")
		printf "ic_title[%d] = %s\n", s, gpq(id ": " kpair[key]) > gp
		printf "\n## %s: %s / %s\n\n", id, fp[1], fp[2] > md
		hdr = "|"
		rule = "|---|"
		line = "| code bytes per site " fp[1] " / " fp[2]
		for (k = 1; k <= K; k++) {
			hdr = hdr " | " letter(k) ": " lab[k]
			rule = rule "---|"
			line = line " | " dash(bytes[k, id, fp[1]]) " / " dash(bytes[k, id, fp[2]])
		}
		print hdr " |\n" rule > md
		mdrow("verdict", verdict, key)
		mdrow("crossover bracket", bracket, key)
		mdrow("small-N winner", winner, key)
		mdrow("points resolved " fp[1] " / " fp[2] " / neither", counts, key)
		print line " |\n" > md

		hdr = "| N"
		rule = "|---:"
		for (k = 1; k <= K; k++) {
			hdr = hdr " | " letter(k) " ratio [95% CI], faster"
			rule = rule "|---"
		}
		print hdr " | sides |\n" rule "|---|" > md
		nn = split(sn[key], nl, " ")
		for (a = 1; a <= nn; a++) {
			n = nl[a]
			line = "| " n
			nc = nb = 0
			for (k = 1; k <= K; k++) {
				v = side[key, n, k]
				line = line " | " num(ratio[key, n, k]) " [" num(lo[key, n, k]) "–" num(hi[key, n, k]) "] " dash(v)
				nc += v == fp[1]
				nb += v == fp[2]
				row = q(id) "," n "," letter(k) "," q(lab[k]) "," ratio[key, n, k] "," lo[key, n, k] "," hi[key, n, k] "," v "," \
					verdict[key, k] "," winner[key, k] "," blo[key, k] "," bhi[key, k] "," fp[1] "," fp[2] "," q(cpu[k]) "," q(dir[k])
				for (i = 1; i <= 6; i++)   # compiler .. body: a keyed one is in the id
					row = row "," q(attr[i] in keyed ? idval[id, attr[i]] : vals[k, attr[i]])
				print row > csv
			}
			agree = nc == K || nb == K ? "same" : nc && nb ? "**opposite**" : nc + nb == 0 ? "—" : "partly resolved"
			print line " | " agree " |" > md
		}
		# Plot data: every N of each input, one block per (series, input).
		nn = split(substr(nlist[key], 2), nl, " ")
		for (k = 1; k <= K; k++) {
			i = (s - 1) * K + k
			printf "ic_xo_lo[%d] = %s\nic_xo_hi[%d] = %s\n", i, nan(blo[key, k]), i, nan(bhi[key, k]) > gp
			printf "# %s %s, input %s: sites ratio lo hi\n", id, kpair[key], letter(k) > dat
			for (a = 1; a <= nn; a++)
				if ((key, nl[a], k) in ratio)
					printf "%s %s %s %s\n", nl[a], ratio[key, nl[a], k], nan(lo[key, nl[a], k]), nan(hi[key, nl[a], k]) > dat
			printf "\n\n" > dat
		}
	}
	print "" > md
}
