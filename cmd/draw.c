/* draw: what dr_usage says; plots/ draws (gnuplot_run.h). */
#include <stdio.h>
#include <unistd.h>

#include "gnuplot_run.h"
#include "kit.h"

static const char dr_usage[] =
	"usage: draw DIR [CHART...]\n"
	"\n"
	"Draws DIR/plots/CHART.png and CHART.svg with gnuplot (plots/CHART.gp) from\n"
	"the data.gp and .dat files that summarize --out DIR or watch_report --out DIR\n"
	"wrote in DIR/plots/, each renamed into place once whole; by default the\n"
	"sweep's time, l1i, ratio, timeline and attribution. gnuplot runs under the\n"
	"C.UTF-8 locale whatever the caller's; $GNUPLOT names another gnuplot.\n"
	"\n"
	"exit status: 0 drawn, or no gnuplot (said, nothing drawn); 2 bad input;\n"
	"1 gnuplot failed (its last line is said)\n";

int main(int argc, char **argv)
{
	const struct ic_option opts[] = { IC_OPTIONS_END };
	const char *dir;
	char path[4096], err[1024];
	int c, rc = 0;

	ic_prog = "draw";
	if ((c = ic_options_parse(argc, argv, opts, dr_usage, "--help")) >= 0)
		return c;
	if (optind >= argc)
		return ic_bad("give the directory summarize --out DIR wrote (see --help)");
	dir = argv[optind++];
	if ((size_t)snprintf(path, sizeof(path), "%s/plots/data.gp", dir) >= sizeof(path))
		return ic_bad("%s: the path is too long", dir);
	if (access(path, R_OK))
		return ic_bad("%s not found: run summarize --out %s first", path, dir);
	for (int i = optind; (i < argc || i == optind) && !rc; i++)
		rc = i < argc ? ic_gnuplot_draw_dir(dir, argv[i], err, sizeof(err))
			     : ic_gnuplot_draw_sweep(dir, err, sizeof(err));
	if (rc > 0)
		fprintf(stderr, "draw: gnuplot not found, no charts drawn: apt-get install gnuplot-nox, then %s %s\n",
			argv[0], dir);
	else if (rc < 0)
		fprintf(stderr, "draw: %s\n", err);
	return rc < 0;
}
