# How far runs of one sweep agree: compare.sh --agree's tables (after
# read.awk, which reads the runs). Variables: md, csv, dat, gp (the files
# to write).
#
# Per series (with its build) and N, for every pair of runs:
#   z = (log rA - log rB) / sqrt(seA^2 + seB^2), within the limit when
#       |z| <= t(0.975) at the smaller df: about 95% of pairs when each
#       run's interval is right;
#   covered: run A's 95% interval holds run B's estimate (ordered pairs):
#       fewer by nature, 2 F_t(t / sqrt 2) - 1 when both spread alike
#       (87% at df = 5), summarize's replicate_cover;
#   opposite: one run resolves the compare form ahead, another the baseline.
# Per series: the verdicts that differ, and each run's states.

BEGIN { by_build = 1 }   # a series is a build's: runs of two builds are never matched
function pct(a, b) { return b ? sprintf("%.0f%%", 100 * a / b) : "—" }
function covers(l, h, x) { return l != "" && x != "" && l + 0 <= x + 0 && x + 0 <= h + 0 }
END {
	print "series,sites,runs,ratio_min,ratio_max,spread,covered_pairs,pairs,z_within,z_pairs,z_max,opposite,sides" > csv
	printf "# Agreement of %d runs of the same sweep\n\n", K > md
	print "Per N, for every pair of runs: z = (log rA - log rB) / sqrt(seA² + seB²), *within* when |z| is at most t(0.975) of the smaller df (about 95% of pairs when the intervals are right); *covered*: one run's 95% interval holds the other's estimate (every ordered pair; fewer by nature: about 87% at df = 5 when both runs spread alike); *opposite*: one run resolves the compare form ahead and another the baseline. A series is a build's: runs of different builds are never matched.\n" > md
	tc = tp = zw = zp = opp = nvd = nbd = nsr = 0; ecov = 0; necov = 0
	for (s = 1; s <= nk; s++) {
		S = keys[s]
		split(kpair[S], fp, "/")
		printf "## %s: %s\n\nVerdict:", kid[S], kpair[S] > md
		same = sameb = 1
		for (k = 1; k <= K; k++) {
			printf " run %d %s%s%s;", k, dash(verdict[S, k]), (bracket[S, k] != "" ? " " bracket[S, k] : ""),
				(states[S, k] != "" ? ", " states[S, k] : "") > md
			if (k > 1 && verdict[S, k] != verdict[S, 1]) same = 0
			if (k > 1 && (blo[S, k] != blo[S, 1] || bhi[S, k] != bhi[S, 1])) sameb = 0
		}
		nsr++; if (!same) nvd++; else if (!sameb) nbd++
		printf "%s\n\n", !same ? " **the verdicts differ**." : !sameb ? " the same verdict, different brackets." : " the same." > md
		print "| N | ratio [95% CI] per run | spread | z per pair | within | covered | sides |" > md
		print "|---:|---|---:|---|---:|---:|---|" > md
		nn = split(substr(nlist[S], 2), list, " ")
		for (i = 1; i <= nn; i++) {
			n = list[i]; key = S SUBSEP n; mn = mx = rs = sd = zs = ""; cov = pairs = w = zpn = 0; zmax = ""; o1 = o2 = 0
			for (k = 1; k <= K; k++) {
				if (ratio[key, k] == "") continue
				if (mn == "" || ratio[key, k] + 0 < mn) mn = ratio[key, k] + 0
				if (mx == "" || ratio[key, k] + 0 > mx) mx = ratio[key, k] + 0
				rs = rs sprintf("%s%.3f [%s–%s]", rs == "" ? "" : "; ", ratio[key, k], fmt(lo[key, k]), fmt(hi[key, k]))
				sd = sd (sd == "" ? "" : " ") side[key, k]
				if (side[key, k] == fp[1]) o1 = 1
				if (side[key, k] == fp[2]) o2 = 1
				if (rc[key, k] != "") { ecov += rc[key, k]; necov++ }
				for (j = 1; j <= K; j++) {
					if (j == k || ratio[key, j] == "") continue
					pairs++; cov += covers(lo[key, k], hi[key, k], ratio[key, j])
					if (j < k || se[key, k] == "" || se[key, j] == "") continue
					v = se[key, k] ^ 2 + se[key, j] ^ 2
					if (v <= 0) continue
					z = (log(ratio[key, k]) - log(ratio[key, j])) / sqrt(v)
					lim = tq[key, k] + 0 > tq[key, j] + 0 ? tq[key, k] : tq[key, j]
					zpn++; w += (z < 0 ? -z : z) <= lim + 0
					zs = zs sprintf("%s%+.2f", zs == "" ? "" : " ", z)
					if (zmax == "" || (z < 0 ? -z : z) > zmax) zmax = z < 0 ? -z : z
				}
			}
			tc += cov; tp += pairs; zw += w; zp += zpn; opp += o1 && o2
			printf "%s,%s,%d,%s,%s,%s,%d,%d,%d,%d,%s,%d,%s\n", q(kid[S]), n, K, mn, mx, (mn > 0 ? sprintf("%.4f", mx / mn) : ""),
				cov, pairs, w, zpn, (zmax == "" ? "" : sprintf("%.3f", zmax)), o1 && o2, sd > csv
			printf "| %s | %s | %s | %s | %d/%d | %d/%d | %s%s |\n", n, rs, (mn > 0 ? sprintf("%.3f", mx / mn) : "—"), dash(zs),
				w, zpn, cov, pairs, sd, (o1 && o2 ? " **opposite**" : "") > md
			printf "%s %s %d", n, (mn > 0 ? mx / mn : "NaN"), s > dat
			for (k = 1; k <= K; k++) printf " %s", (ratio[key, k] == "" ? "NaN" : ratio[key, k]) > dat
			printf "\n" > dat
		}
		print "" > md
		printf "\n\n" > dat
	}
	pc = pp = 0
	for (key in pk) for (k = 1; k <= K; k++) for (j = 1; j <= K; j++)
		if (j != k && pe[key, j] != "" && pe[key, k] != "") { pp++; pc += covers(pl[key, k], ph[key, k], pe[key, j]) }
	printf "Time per call site (not a ratio; machines and sessions move it most): %d of %d ordered pairs covered (%s).\n\n", pc, pp, pct(pc, pp) > md
	printf "Ratios: z within the t limit in %d of %d pairs (%s; about 95%% expected); covered %d of %d ordered pairs (%s; about %s expected); %d N resolved opposite ways; verdicts differ in %d of %d series (brackets alone in %d more).\n",
		zw, zp, pct(zw, zp), tc, tp, pct(tc, tp), (necov ? sprintf("%.0f%%", 100 * ecov / necov) : "?"), opp, nvd, nsr, nbd > md
	printf "ic_k = %d\narray ic_series[%d]\n", K, nk > gp
	for (s = 1; s <= nk; s++) { t = kid[keys[s]]; gsub(/"/, "'", t); printf "ic_series[%d] = \"%s\"\n", s, t > gp }
}
