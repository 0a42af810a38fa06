/* tools/pwcc-tr.c: what the SIMT emulator's build does to a .cu file before
 * the host C++ compiler sees it. Everything else in CUDA is a function, a
 * type or a macro of common/simt/simt_device.h; these two are syntax C++ lacks:
 *
 *   kernel<<<grid, block, shmem, stream>>>(args)
 *       ::pw::launch("kernel", ::pw::config(grid, block, shmem, stream),
 *                    [=](auto &&...pw_a) { kernel(pw_a...); }, args)
 *       (the arguments are evaluated once, on the host; templates deduce as
 *       they would in a call)
 *   __shared__ float tile[32][33];           (in a function)
 *       using pw_shared_t_tile = float[32][33]; static const char pw_shared_tag_tile = 0;
 *       pw_shared_t_tile &tile = *::pw::shared_static<pw_shared_t_tile, 0>(&pw_shared_tag_tile);
 *       (one place per block in the block's shared memory, chosen the first
 *       time a thread of the block gets there)
 *   extern __shared__ float s[];
 *       using pw_shared_t_s = float; pw_shared_t_s *s = ::pw::shared_dynamic<pw_shared_t_s>();
 *   (at namespace scope the name becomes a macro for the same expression)
 *
 * Every line stays where it was (a #line names the original file), so a
 * compiler error or a report of the emulator points at the learner's line.
 *
 *   pwcc-tr FILE.cu > OUT.cu       (exit 2 with one line if FILE cannot be read)
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t start, end;            /* [start, end) in the source */
    int line;                     /* line of start, from 1 */
    char kind;                    /* 'i' identifier, 'n' number, 's' string/char, 'p' punctuation */
} token;

static char *src;
static size_t len;
static token *tok;
static size_t ntok, captok;
static bool *in_code;             /* per token: inside a function body */

static void add(size_t s, size_t e, int line, char kind)
{
    if (ntok == captok) {
        captok = captok ? 2 * captok : 4096;
        tok = realloc(tok, captok * sizeof *tok);
        if (!tok) { fprintf(stderr, "pwcc-tr: out of memory\n"); exit(2); }
    }
    tok[ntok++] = (token){ s, e, line, kind };
}

static bool is(size_t i, const char *text)
{
    size_t n = strlen(text);
    return i < ntok && tok[i].end - tok[i].start == n && memcmp(src + tok[i].start, text, n) == 0;
}

static void lex(void)
{
    size_t i = 0;
    int line = 1;
    bool line_start = true;
    while (i < len) {
        char c = src[i];
        if (c == '\n') { line++; i++; line_start = true; continue; }
        if (isspace((unsigned char)c)) { i++; continue; }
        if (c == '#' && line_start) {           /* a preprocessor line, with its continuations */
            while (i < len && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < len && src[i + 1] == '\n') { line++; i += 2; continue; }
                if (src[i] == '/' && i + 1 < len && src[i + 1] == '*') {
                    i += 2;
                    while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) { if (src[i] == '\n') line++; i++; }
                    i += 2;
                    continue;
                }
                i++;
            }
            continue;
        }
        line_start = false;
        if (c == '/' && i + 1 < len && src[i + 1] == '/') {
            while (i < len && src[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < len && src[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) { if (src[i] == '\n') line++; i++; }
            i += 2;
            continue;
        }
        size_t s = i;
        int l = line;
        if (c == 'R' && i + 1 < len && src[i + 1] == '"') {   /* a raw string R"delim( ... )delim" */
            size_t p = i + 2;
            while (p < len && src[p] != '(') p++;
            char delim[20];
            size_t dn = p - (i + 2) < sizeof delim - 1 ? p - (i + 2) : sizeof delim - 1;
            memcpy(delim, src + i + 2, dn);
            delim[dn] = 0;
            for (p++; p < len; p++) {
                if (src[p] == '\n') line++;
                if (src[p] == ')' && !strncmp(src + p + 1, delim, dn) && p + 1 + dn < len && src[p + 1 + dn] == '"') {
                    p += dn + 2;
                    break;
                }
            }
            i = p;
            add(s, i, l, 's');
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < len && (isalnum((unsigned char)src[i]) || src[i] == '_')) i++;
            if (i < len && (src[i] == '"' || src[i] == '\'') && i - s <= 2) {   /* u8"..", L'x' */
                c = src[i];                               /* the prefix is part of the literal */
            } else {
                add(s, i, l, 'i');
                continue;
            }
        }
        if (c == '"' || c == '\'') {
            char q = src[i++];
            while (i < len && src[i] != q) {
                if (src[i] == '\\') i++;
                else if (src[i] == '\n') line++;
                i++;
            }
            i++;
            add(s, i, l, 's');
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)src[i + 1]))) {
            while (i < len && (isalnum((unsigned char)src[i]) || src[i] == '.' || src[i] == '\'' ||
                               ((src[i] == '+' || src[i] == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E' ||
                                                                     src[i - 1] == 'p' || src[i - 1] == 'P'))))
                i++;
            add(s, i, l, 'n');
            continue;
        }
        if (!strncmp(src + i, "<<<", 3) || !strncmp(src + i, ">>>", 3)) { i += 3; add(s, i, l, 'p'); continue; }
        if (!strncmp(src + i, "::", 2) || !strncmp(src + i, "->", 2)) { i += 2; add(s, i, l, 'p'); continue; }
        i++;
        add(s, i, l, 'p');
    }
}

/* Which tokens are inside a function body: a { opens one when it follows a )
 * or a function's trailing qualifier, or when it is inside one already. */
static void scopes(void)
{
    in_code = calloc(ntok + 1, sizeof *in_code);
    bool stack[4096];
    int depth = 0;
    bool code = false;
    for (size_t i = 0; i < ntok; i++) {
        in_code[i] = code;
        if (is(i, "{")) {
            bool opens = code || (i > 0 && (is(i - 1, ")") || is(i - 1, "const") || is(i - 1, "noexcept") ||
                                            is(i - 1, "override") || is(i - 1, "final") || is(i - 1, "mutable")));
            if (depth < 4096) stack[depth] = code;
            depth++;
            code = opens;
        } else if (is(i, "}")) {
            if (depth > 0) depth--;
            code = depth < 4096 ? stack[depth] : code;
        }
    }
}

static size_t out_line = 1;       /* lines written so far, for #line after a macro */
static const char *path;

static void emit(const char *s, size_t n)
{
    fwrite(s, 1, n, stdout);
    for (size_t k = 0; k < n; k++) if (s[k] == '\n') out_line++;
}
static void emits(const char *s) { emit(s, strlen(s)); }
static void emit_tokens(size_t a, size_t b)   /* tokens [a, b), with the text between them */
{
    if (a < b) emit(src + tok[a].start, tok[b - 1].end - tok[a].start);
}
static int newlines(size_t s, size_t e)
{
    int n = 0;
    for (size_t k = s; k < e; k++) n += src[k] == '\n';
    return n;
}
/* The text of tokens [a, b) on one line (for a kernel's name). */
static void flat(size_t a, size_t b, char *buf, size_t cap)
{
    size_t n = 0;
    for (size_t i = a; i < b && n + 2 < cap; i++) {
        size_t l = tok[i].end - tok[i].start;
        if (i > a && (tok[i].kind == 'i' || tok[i].kind == 'n') && (tok[i - 1].kind == 'i' || tok[i - 1].kind == 'n') &&
            n + 1 < cap)
            buf[n++] = ' ';
        for (size_t k = 0; k < l && n + 2 < cap; k++) {
            char ch = src[tok[i].start + k];
            if (ch == '"' || ch == '\\') buf[n++] = '\\';
            buf[n++] = ch;
        }
    }
    buf[n] = 0;
}

static void fail_at(int line, const char *what)
{
    fprintf(stderr, "%s:%d: error: %s\n", path, line, what);
    exit(1);
}

/* __shared__ at token k: the whole declaration statement [s, e] rewritten. */
static size_t shared_decl(size_t k, size_t *cursor)
{
    size_t s = k;
    while (s > 0 && !is(s - 1, ";") && !is(s - 1, "{") && !is(s - 1, "}") && !is(s - 1, ":")) s--;
    size_t e = k;
    int nest = 0;
    while (e < ntok && !(nest == 0 && is(e, ";"))) {
        if (is(e, "(") || is(e, "[") || is(e, "{")) nest++;
        if (is(e, ")") || is(e, "]") || is(e, "}")) nest--;
        e++;
    }
    if (e >= ntok) fail_at(tok[k].line, "a __shared__ declaration without its ';'");
    if (s < *cursor) s = *cursor; /* never rewrite text already written */
    bool ext = false, code = in_code[k];
    char align[128] = "0";
    /* the tokens that make the type and the declarators, without the storage words */
    size_t keep[512], nk = 0;
    for (size_t i = s; i < e && nk < 512; i++) {
        if (is(i, "__shared__") || is(i, "static")) continue;
        if (is(i, "extern")) { ext = true; continue; }
        if ((is(i, "__align__") || is(i, "alignas")) && is(i + 1, "(")) {
            size_t j = i + 2;
            int d = 1;
            while (j < e && d) { if (is(j, "(")) d++; if (is(j, ")")) d--; j++; }
            size_t a0 = tok[i + 2].start, a1 = tok[j - 1].start;
            snprintf(align, sizeof align, "(%.*s)", (int)(a1 - a0), src + a0);
            i = j - 1;
            continue;
        }
        keep[nk++] = i;
    }
    /* split the declarators at top-level commas; the first one's base type is everyone's */
    size_t starts[32], ends[32];
    int nd = 0, d = 0;
    size_t from = 0;
    for (size_t q = 0; q <= nk && nd < 32; q++) {
        size_t i = q < nk ? keep[q] : 0;
        if (q < nk && (is(i, "(") || is(i, "[") || is(i, "<"))) d++;
        if (q < nk && (is(i, ")") || is(i, "]") || is(i, ">"))) d--;
        if (q == nk || (d == 0 && is(i, ","))) { starts[nd] = from; ends[nd] = q; nd++; from = q + 1; }
    }
    /* the first declarator: the name is the last identifier before a [ or =, at depth 0 */
    size_t name_at = (size_t)-1;
    d = 0;
    for (size_t q = starts[0]; q < ends[0]; q++) {
        size_t i = keep[q];
        if (is(i, "[") || is(i, "=")) { if (d == 0) break; }
        if (is(i, "(") || is(i, "<")) d++;
        if (is(i, ")") || is(i, ">")) d--;
        if (d == 0 && tok[i].kind == 'i') name_at = q;
    }
    if (name_at == (size_t)-1 || name_at == starts[0])
        fail_at(tok[k].line, "pwcc: cannot read this __shared__ declaration (write it as: __shared__ TYPE NAME[N];)");
    size_t base_end = name_at;    /* the base type: up to the name, less the declarator's * and & */
    while (base_end > starts[0] && (is(keep[base_end - 1], "*") || is(keep[base_end - 1], "&"))) base_end--;
    char base[1024];
    {
        size_t n = 0;
        for (size_t q = starts[0]; q < base_end && n + 2 < sizeof base; q++) {
            size_t i = keep[q], l = tok[i].end - tok[i].start;
            if (n) base[n++] = ' ';
            if (n + l >= sizeof base) break;
            memcpy(base + n, src + tok[i].start, l);
            n += l;
        }
        base[n] = 0;
    }
    int lines = newlines(tok[s].start, tok[e].end);
    for (int di = 0; di < nd; di++) {
        size_t q0 = di == 0 ? base_end : starts[di], q1 = ends[di];
        /* declarator: stars, the name, dimensions */
        char stars[16] = "";
        size_t q = q0, ns = 0;
        while (q < q1 && (is(keep[q], "*") || is(keep[q], "&"))) { if (ns < 15) stars[ns++] = src[tok[keep[q]].start]; q++; }
        stars[ns] = 0;
        if (q >= q1 || tok[keep[q]].kind != 'i')
            fail_at(tok[k].line, "pwcc: cannot read this __shared__ declaration (write it as: __shared__ TYPE NAME[N];)");
        size_t nm = keep[q++];
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(tok[nm].end - tok[nm].start), src + tok[nm].start);
        /* dimensions: [a][b]...; for extern the first one is the unsized [] */
        char dims[512] = "";
        bool first_empty = false;
        size_t dn = 0;
        int first = 1;
        while (q < q1 && is(keep[q], "[")) {
            size_t j = q + 1;
            int dd = 1;
            while (j < q1 && dd) { if (is(keep[j], "[")) dd++; if (is(keep[j], "]")) dd--; j++; }
            size_t a0 = tok[keep[q]].start, a1 = tok[keep[j - 1]].end;
            if (first && j == q + 2) first_empty = true;
            else if (!(ext && first))
                dn += (size_t)snprintf(dims + dn, sizeof dims - dn, "%.*s", (int)(a1 - a0), src + a0);
            first = 0;
            q = j;
        }
        if (q < q1)
            fail_at(tok[nm].line, "pwcc: a __shared__ variable cannot have an initializer (CUDA forbids it: "
                                  "assign it in the kernel, then __syncthreads())");
        if (first_empty && !ext)
            fail_at(tok[nm].line, "pwcc: a __shared__ array of unknown size must be extern (the dynamic one)");
        char text[3072];
        if (ext) {
            snprintf(text, sizeof text, "using pw_shared_t_%s = %s %s%s; ", name, base, stars, dims);
            emits(text);
            if (code) {
                snprintf(text, sizeof text, "pw_shared_t_%s *%s = ::pw::shared_dynamic<pw_shared_t_%s>(); ", name, name,
                         name);
                emits(text);
            } else {
                snprintf(text, sizeof text, "\n#define %s (::pw::shared_dynamic<pw_shared_t_%s>())\n#line %d \"%s\"\n",
                         name, name, tok[s].line, path);
                emits(text);
            }
        } else {
            snprintf(text, sizeof text, "using pw_shared_t_%s = %s %s%s; static const char pw_shared_tag_%s = 0; ", name,
                     base, stars, dims, name);
            emits(text);
            if (code) {
                snprintf(text, sizeof text,
                         "pw_shared_t_%s &%s = *::pw::shared_static<pw_shared_t_%s, %s>(&pw_shared_tag_%s); ", name,
                         name, name, align, name);
                emits(text);
            } else {
                snprintf(text, sizeof text,
                         "\n#define %s (*::pw::shared_static<pw_shared_t_%s, %s>(&pw_shared_tag_%s))\n#line %d \"%s\"\n",
                         name, name, align, name, tok[s].line, path);
                emits(text);
            }
        }
    }
    for (int l = 0; l < lines; l++) emits("\n");
    *cursor = e + 1;
    return s;
}

/* k<<<...>>>(...) with <<< at token k. */
static void launch(size_t k, size_t *cursor, size_t callee)
{
    size_t c = k + 1;
    int d = 0;
    while (c < ntok && !(d == 0 && is(c, ">>>"))) {
        if (is(c, "(") || is(c, "[") || is(c, "{")) d++;
        if (is(c, ")") || is(c, "]") || is(c, "}")) d--;
        c++;
    }
    if (c >= ntok || !is(c + 1, "("))
        fail_at(tok[k].line, "pwcc: a kernel launch reads kernel<<<grid, block[, shared bytes[, stream]]>>>(arguments)");
    size_t a = c + 2, b = a;
    d = 1;
    while (b < ntok && d) {
        if (is(b, "(")) d++;
        if (is(b, ")")) d--;
        if (d) b++;
    }
    if (b >= ntok) fail_at(tok[k].line, "pwcc: a kernel launch without the ) that ends its arguments");
    char name[512];
    flat(callee, k, name, sizeof name);
    size_t before = out_line;
    emits("::pw::launch(\"");
    emits(name);
    emits("\", ::pw::config(");
    emit_tokens(k + 1, c);
    emits("), [=](auto &&...pw_a) { ");
    emit_tokens(callee, k);
    emits("(pw_a...); }");
    if (a < b) {
        emits(", ");
        emit_tokens(a, b);
    }
    emits(")");
    /* the line breaks the pieces did not carry, so the next line is where it was */
    for (long l = (long)newlines(tok[callee].start, tok[b].end) - (long)(out_line - before); l > 0; l--) emits("\n");
    *cursor = b + 1;
}

/* Where the launched expression before <<< at k starts: name, ns::name,
 * name<targs>, (*pointer). */
static size_t callee_start(size_t k)
{
    size_t i = k;
    if (i == 0) return k;
    i--;
    for (;;) {
        if (is(i, ">")) {                         /* template arguments */
            int d = 0;
            while (i > 0) {
                if (is(i, ">")) d++;
                else if (is(i, ">>")) d += 2;
                else if (is(i, "<")) d--;
                if (d == 0) break;
                i--;
            }
            if (i == 0) return k;
            i--;
        }
        if (is(i, ")")) {                         /* (*fp) */
            int d = 0;
            while (i > 0) {
                if (is(i, ")")) d++;
                if (is(i, "(")) d--;
                if (d == 0) break;
                i--;
            }
            return i;
        }
        if (tok[i].kind != 'i') return i + 1;
        if (i >= 1 && is(i - 1, "::")) {
            if (i >= 2 && (tok[i - 2].kind == 'i' || is(i - 2, ">"))) { i -= 2; continue; }
            return i - 1;
        }
        return i;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pwcc-tr FILE.cu > OUT.cu\n");
        return 2;
    }
    path = argv[1];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pwcc-tr: cannot read %s\n", path);
        return 2;
    }
    size_t cap = 1 << 16;
    src = malloc(cap);
    for (size_t n; (n = fread(src + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) { cap *= 2; src = realloc(src, cap); }
    }
    fclose(f);
    src = realloc(src, len + 1);
    src[len] = 0;
    lex();
    scopes();
    printf("#line 1 \"%s\"\n", path);
    size_t pos = 0;               /* source bytes written */
    size_t cursor = 0;            /* tokens consumed */
    for (size_t k = 0; k < ntok; k++) {
        if (k < cursor) continue;
        if (is(k, "__shared__")) {
            size_t save = cursor;
            /* the statement's first token: write the text before it */
            size_t s = k;
            while (s > save && !is(s - 1, ";") && !is(s - 1, "{") && !is(s - 1, "}") && !is(s - 1, ":")) s--;
            emit(src + pos, tok[s].start - pos);
            size_t c2 = s;
            shared_decl(k, &c2);
            cursor = c2;
            pos = tok[cursor - 1].end;
            continue;
        }
        if (is(k, "<<<")) {
            size_t s = callee_start(k);
            if (s < cursor || s >= k) fail_at(tok[k].line, "pwcc: cannot tell which kernel this <<< launches");
            emit(src + pos, tok[s].start - pos);
            size_t c2 = s;
            launch(k, &c2, s);
            cursor = c2;
            pos = tok[cursor - 1].end;
            continue;
        }
    }
    emit(src + pos, len - pos);
    return 0;
}
