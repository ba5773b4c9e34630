// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig-closure: the options a small configuration must set so that
 * some symbols take the values a reference configuration gives them,
 * with the kernel's own Kconfig code (linked from the tree's
 * scripts/kconfig).
 *
 *   kconfig-closure KCONFIG REFERENCE.config SYM...
 *
 * For each SYM the reference sets (y or m), and for every symbol its
 * direct dependencies need, recursively: a symbol with a prompt is
 * printed as "CONFIG_SYM=<reference value>"; one without a prompt
 * (set only by select) is reached through the first of its selectors
 * that the reference sets. Of an "A || B" dependency the first operand
 * that is true in the reference is followed; negations and comparisons
 * are left to olddefconfig. A printed symbol that could be a module is
 * also named on a line "tristate CONFIG_SYM". Each SYM's closure follows
 * a line "closure SYM", complete in itself (symbols repeat across
 * closures). A SYM the reference leaves unset, or that does not exist,
 * is reported on stderr ("unset SYM" or "unknown SYM") and nothing is
 * printed for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lkc.h"

static void want(struct symbol *sym);

/* Symbols already followed (Kconfig's own flags are taken after parsing). */
#define MAX_SEEN 8192
static struct symbol *seen[MAX_SEEN];
static int nseen;

static bool first_visit(struct symbol *sym)
{
	for (int i = 0; i < nseen; i++)
		if (seen[i] == sym)
			return false;
	if (nseen == MAX_SEEN) {
		fprintf(stderr, "kconfig-closure: more than %d symbols\n", MAX_SEEN);
		exit(1);
	}
	seen[nseen++] = sym;
	return true;
}

/* Follow the symbols expression E needs in the reference. */
static void need(struct expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case E_SYMBOL:
		want(e->left.sym);
		break;
	case E_AND:
		need(e->left.expr);
		need(e->right.expr);
		break;
	case E_OR:
		need(expr_calc_value(e->left.expr) != no ? e->left.expr : e->right.expr);
		break;
	case E_UNEQUAL:		/* "FOO != n" */
		if (e->right.sym == &symbol_no)
			want(e->left.sym);
		break;
	case E_EQUAL:		/* "FOO = y" */
		if (e->right.sym == &symbol_yes || e->right.sym == &symbol_mod)
			want(e->left.sym);
		break;
	default:
		break;
	}
}

static void want(struct symbol *sym)
{
	tristate v;

	if (!sym || (sym->flags & SYMBOL_CONST) ||
	    (sym->type != S_BOOLEAN && sym->type != S_TRISTATE) || !first_visit(sym))
		return;
	v = sym_get_tristate_value(sym);
	if (v == no)
		return;
	need(sym->dir_dep.expr);
	if (sym->visible != no) {
		printf("CONFIG_%s=%s\n", sym->name, v == yes ? "y" : "m");
		if (sym->type == S_TRISTATE)
			printf("tristate CONFIG_%s\n", sym->name);
	} else
		need(sym->rev_dep.expr);	/* an OR of "selector && cond" */
}

int main(int argc, char **argv)
{
	struct symbol *sym;
	int i, bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: kconfig-closure KCONFIG REFERENCE.config SYM...\n");
		return 2;
	}
	conf_parse(argv[1]);
	if (conf_read(argv[2])) {
		fprintf(stderr, "kconfig-closure: cannot read %s\n", argv[2]);
		return 1;
	}
	for (i = 3; i < argc; i++) {
		sym = sym_find(argv[i]);
		if (!sym) {
			fprintf(stderr, "unknown %s\n", argv[i]);
			bad = 1;
		} else if (sym_get_tristate_value(sym) == no) {
			fprintf(stderr, "unset %s\n", argv[i]);
		} else {
			printf("closure %s\n", sym->name);
			nseen = 0;
			want(sym);
		}
	}
	return bad;
}
