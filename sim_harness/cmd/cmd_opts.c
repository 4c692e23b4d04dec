/* cmd_opts.c - the options every network command shares (cmd_opts.h). */
#include "cmd/cmd_opts.h"

#include <string.h>

#include "../../firmware/lib/ni_regs.h"
#include "util/cli.h"
#include "util/suggest.h"

void cmd_opts_init(cmd_opts *o, unsigned accept)
{
    memset(o, 0, sizeof *o);
    o->accept = accept;
    router_cfg_default(&o->rc);
    o->ports = 1;
    o->seed = 1;
}

int cmd_opts_arg(cmd_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    unsigned which = !strcmp(a, "--topo")     ? OPT_TOPO
                     : !strcmp(a, "--router") ? OPT_ROUTER
                     : !strcmp(a, "--ports")  ? OPT_PORTS
                     : !strcmp(a, "--json")   ? OPT_JSON
                     : !strcmp(a, "--seed")   ? OPT_SEED
                                              : 0;
    if (!(which & o->accept)) return 0; /* not common, or not this command's: its own loop says so */
    if (which == OPT_JSON) {
        o->json = 1;
        return 1;
    }
    if (*i + 1 >= argc) cli_fail(EXIT_USAGE, "option '%s' needs a value (see xnoc %s --help)", a, cli_cmd);
    const char *v = argv[++*i];
    char err[300];
    if (!strcmp(a, "--topo")) o->topo = v;
    else if (!strcmp(a, "--router")) {
        if (router_cfg_parse(&o->rc, v, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    } else if (!strcmp(a, "--ports")) o->ports = (int)cli_long(a, v, 1, NI_MAX_K);
    else {
        o->seed = cli_u64(a, v);
        o->seed_given = 1;
    }
    return 1;
}

topo *cmd_opts_topo(const cmd_opts *o)
{
    if (!o->topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc %s --help)", cli_cmd);
    char err[300];
    topo *t = topo_parse(o->topo, o->ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    return t;
}

int cmd_usage_names(const char *usage, const char *a)
{
    size_t l = strlen(a);
    if (l < 3 || strncmp(a, "--", 2)) return 0;
    for (const char *p = strstr(usage, a); p; p = strstr(p + 1, a)) {
        char after = p[l], before = p > usage ? p[-1] : ' ';
        int word_end = !((after >= 'a' && after <= 'z') || (after >= '0' && after <= '9') || after == '-');
        if (word_end && (before == ' ' || before == '[' || before == '\n' || before == '(' || before == '|')) return 1;
    }
    return 0;
}

void cmd_bad_option(const char *a, const char *usage)
{
    if (usage && cmd_usage_names(usage, a))
        cli_fail(EXIT_USAGE, "option '%s' needs a value (see xnoc %s --help)", a, cli_cmd);
    const char *near = usage && !strncmp(a, "--", 2) ? suggest_option(a, usage) : NULL;
    if (near) cli_fail(EXIT_USAGE, "unknown option '%s' (did you mean %s? see xnoc %s --help)", a, near, cli_cmd);
    cli_fail(EXIT_USAGE, "unknown option '%s' (see xnoc %s --help)", a, cli_cmd);
}

void cmd_usage_print(FILE *f, const char *usage)
{
    static const char token[] = "{topo-kinds}";
    const char *at;
    while ((at = strstr(usage, token))) {
        const char *line = at;
        while (line > usage && line[-1] != '\n') line--;
        int col = (int)(at - line), len = col;
        fwrite(usage, 1, (size_t)(at - usage), f);
        const char *k = topo_kinds_usage();
        while (*k) { /* the kinds, ", "-separated, a new line before one that would pass column 96 */
            const char *end = strstr(k, ", ");
            int n = end ? (int)(end - k) + 1 : (int)strlen(k);
            if (len > col && len + 1 + n > 96) {
                fprintf(f, "\n%*s", col, "");
                len = col;
            } else if (len > col) {
                fputc(' ', f);
                len++;
            }
            fwrite(k, 1, (size_t)n, f);
            len += n;
            k += end ? n + 1 : n;
        }
        usage = at + sizeof token - 1;
    }
    fputs(usage, f);
}
