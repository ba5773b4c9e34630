// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig-matrix: evaluate every assignment of a few Kconfig symbols with
 * the kernel's own Kconfig code (linked from the tree's scripts/kconfig),
 * as "make olddefconfig" would for a .config that has these lines, and
 * print each distinct result once.
 *
 *   kconfig-matrix KCONFIG BASE.config SPEC OUTDIR
 *
 * SPEC has one line per axis: "SYM[,SYM...] VALUE..." (the symbols of one
 * axis take the same value), and "watch DIR/" or "watch SYM" lines: the
 * symbols defined in Kconfig files under DIR, and each SYM, make up the
 * result. OUTDIR gets NNN.config, the
 * full .config of each distinct result. stdout:
 *   result NNN <count> <first assignment> : <watched symbols not n>
 *   bool-under-m NNN SYM <dependency>     (a bool is y while what it
 *                                          depends on is m: with it, the
 *                                          code it enables is not built)
 */
#include <string.h>
#include "lkc.h"
/*
 * Kconfig's internals changed in v6.10: symbols live in a hash table
 * (internal.h) and each knows its menu entries, which carry the file
 * name; before, a P_SYMBOL property did.
 */
#include "internal.h"
#ifdef HASHTABLE_DECLARE
#define KCONFIG_SYMBOL_MENUS
#define each_symbol(i, sym) for_all_symbols(sym)
#else
#define each_symbol(i, sym) for_all_symbols(i, sym)
#endif

/* Is SYM defined in a file under DIR? */
static bool defined_under(struct symbol *sym, const char *dir)
{
#ifdef KCONFIG_SYMBOL_MENUS
	struct menu *menu;

	list_for_each_entry(menu, &sym->menus, link)
		if (!strncmp(menu->filename, dir, strlen(dir)))
			return true;
#else
	struct property *prop;

	for_all_properties(sym, prop, P_SYMBOL)
		if (!strncmp(prop->file->name, dir, strlen(dir)))
			return true;
#endif
	return false;
}

#define MAX_AXES 32
#define MAX_SYMS 16
#define MAX_WATCH 16
#define MAX_RESULTS 4096

struct axis {
	struct symbol *sym[MAX_SYMS];
	int nsyms;
	tristate val[3];
	int nvals;
};

static struct axis axes[MAX_AXES];
static int naxes;
static const char *watch[MAX_WATCH];
static int nwatch;
static char *results[MAX_RESULTS];
static int counts[MAX_RESULTS];
static int nresults;

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "kconfig-matrix: %s: %s\n", what, arg);
	exit(2);
}

static tristate parse_tri(const char *s)
{
	if (!strcmp(s, "y"))
		return yes;
	if (!strcmp(s, "m"))
		return mod;
	if (!strcmp(s, "n"))
		return no;
	die("not y, m or n", s);
	return no;
}

static char tri_char(tristate t)
{
	return t == yes ? 'y' : t == mod ? 'm' : 'n';
}

static void read_spec(const char *path)
{
	char line[1024], *tok, *save, *name, *nsave;
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read", path);
	while (fgets(line, sizeof(line), f)) {
		struct axis *a;

		tok = strtok_r(line, " \t\n", &save);
		if (!tok || tok[0] == '#')
			continue;
		if (!strcmp(tok, "watch")) {
			tok = strtok_r(NULL, " \t\n", &save);
			if (!tok || nwatch == MAX_WATCH)
				die("bad watch line in", path);
			watch[nwatch++] = strdup(tok);
			continue;
		}
		if (naxes == MAX_AXES)
			die("too many axes in", path);
		a = &axes[naxes++];
		for (name = strtok_r(tok, ",", &nsave); name;
		     name = strtok_r(NULL, ",", &nsave)) {
			struct symbol *sym = sym_find(name);

			if (!sym || a->nsyms == MAX_SYMS)
				die("no such symbol (or too many on one axis)", name);
			a->sym[a->nsyms++] = sym;
		}
		while ((tok = strtok_r(NULL, " \t\n", &save)) && a->nvals < 3)
			a->val[a->nvals++] = parse_tri(tok);
		if (!a->nvals)
			die("an axis without values in", path);
	}
	fclose(f);
}

static struct symbol **watched_syms;
static int nwatched;

/*
 * Is SYM named by a watch line, or defined in a Kconfig file under a
 * watched directory (a watch line ending in '/')?
 */
static bool watched(struct symbol *sym)
{
	int i;

	if (!sym->name || !(sym->type == S_BOOLEAN || sym->type == S_TRISTATE))
		return false;
	for (i = 0; i < nwatch; i++)
		if (!strcmp(sym->name, watch[i]) ||
		    (watch[i][strlen(watch[i]) - 1] == '/' &&
		     defined_under(sym, watch[i])))
			return true;
	return false;
}

static int cmp_sym(const void *a, const void *b)
{
	return strcmp((*(struct symbol *const *)a)->name,
		      (*(struct symbol *const *)b)->name);
}

/* The watched symbols, sorted by name, once. */
static void find_watched(void)
{
	struct symbol *sym;
	int i __attribute__((unused)), n = 0;

	each_symbol(i, sym)
		n += watched(sym);
	watched_syms = calloc(n + 1, sizeof(*watched_syms));
	each_symbol(i, sym)
		if (watched(sym))
			watched_syms[nwatched++] = sym;
	qsort(watched_syms, nwatched, sizeof(*watched_syms), cmp_sym);
}

/* The watched symbols that are not n: the identity of a result. */
static char *result_string(void)
{
	size_t len = 1, used = 0;
	char *s;
	int i;

	for (i = 0; i < nwatched; i++)
		len += strlen(watched_syms[i]->name) + 3;
	s = calloc(1, len);
	for (i = 0; i < nwatched; i++) {
		struct symbol *sym = watched_syms[i];
		tristate v;

		sym_calc_value(sym);
		v = sym_get_tristate_value(sym);
		if (v != no)
			used += sprintf(s + used, "%s%s=%c", used ? " " : "",
					sym->name, tri_char(v));
	}
	return s;
}

/* A bool that is y although its own dependency evaluates to m. */
static void check_bool_under_m(int result)
{
	int i;

	for (i = 0; i < nwatched; i++) {
		struct symbol *sym = watched_syms[i];
		struct gstr gs;

		if (sym->type != S_BOOLEAN || !sym->dir_dep.expr ||
		    sym_get_tristate_value(sym) != yes ||
		    expr_calc_value(sym->dir_dep.expr) != mod)
			continue;
		gs = str_new();
		expr_gstr_print(sym->dir_dep.expr, &gs);
		printf("bool-under-m %03d %s %s\n", result, sym->name, str_get(&gs));
		str_free(&gs);
	}
}

/* Set the user value of every symbol of every axis, as a .config would. */
static void assign(const int *choice, char *desc, size_t desclen)
{
	int i, j;

	desc[0] = 0;
	for (i = 0; i < naxes; i++) {
		tristate v = axes[i].val[choice[i]];

		for (j = 0; j < axes[i].nsyms; j++) {
			struct symbol *sym = axes[i].sym[j];

			sym->def[S_DEF_USER].tri = v;
			sym->flags |= SYMBOL_DEF_USER;
		}
		snprintf(desc + strlen(desc), desclen - strlen(desc), "%s%s=%c",
			 i ? "," : "", axes[i].sym[0]->name, tri_char(v));
	}
	sym_clear_all_valid();
}

int main(int argc, char **argv)
{
	static char first[MAX_RESULTS][1024];
	int choice[MAX_AXES] = { 0 };
	char desc[1024], path[4096];
	long total = 0;
	int i, r;

	if (argc != 5) {
		fprintf(stderr, "usage: kconfig-matrix KCONFIG BASE.config SPEC OUTDIR\n");
		return 2;
	}
	conf_set_message_callback(NULL);
	conf_parse(argv[1]);
	if (conf_read(argv[2]))
		die("cannot read", argv[2]);
	read_spec(argv[3]);
	find_watched();

	for (;;) {
		char *res;

		assign(choice, desc, sizeof(desc));
		res = result_string();
		total++;
		for (r = 0; r < nresults && strcmp(results[r], res); r++)
			;
		if (r == nresults) {
			if (nresults == MAX_RESULTS)
				die("too many distinct results", desc);
			results[nresults++] = res;
			snprintf(first[r], sizeof(first[r]), "%s", desc);
			snprintf(path, sizeof(path), "%s/%03d.config", argv[4], r);
			if (conf_write(path))
				die("cannot write", path);
			check_bool_under_m(r);
		} else {
			free(res);
		}
		counts[r]++;

		/* the next assignment: count through the axes like an odometer */
		for (i = naxes - 1; i >= 0 && ++choice[i] == axes[i].nvals; i--)
			choice[i] = 0;
		if (i < 0)
			break;
	}
	for (r = 0; r < nresults; r++)
		printf("result %03d %d %s : %s\n", r, counts[r], first[r], results[r]);
	printf("assignments %ld distinct %d\n", total, nresults);
	return 0;
}
