/* A solver of your own in C: places the ships one by one, longest first, and backtracks.
 *
 * Build and run it (any C compiler):
 *   cc -O2 -o placements docs/examples/solvers/placements.c
 *   python main.py solve levels/8x8/easy/01.bs --solver 'cmd:./placements'
 *
 * The contract: the level arrives on standard input as one line of .bs JSON, with "rows",
 * "cols" and "fleet" always present; write one JSON object per line on standard output:
 * an event such as {"kind":"guess","cells":[{"row":1,"col":2,"state":"ship"}],"depth":1}
 * for each cell you set, and at the end {"kind":"result","verdict":"solved","solution":[...]}
 * (or "no_solution"). See docs/guide/your-own-solver.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 64
static int rows, cols, nships, ships[MAX * MAX], row_left[MAX], col_left[MAX];
static char hint[MAX][MAX][3];            /* the .bs code of each given cell, "" if none */
static int ship[MAX][MAX];
static long nodes;

static char *after(char *text, const char *key) {
    char *at = strstr(text, key);
    if (!at) { fprintf(stderr, "no %s in the level\n", key); exit(1); }
    return at + strlen(key);
}

static void tallies(char *text, const char *key, int *out, int count) {
    char *p = after(text, key);
    for (int i = 0; i < count; i++) {
        while (*p == ',' || *p == ' ') p++;
        if (strncmp(p, "null", 4) == 0) { out[i] = -1; p += 4; } else out[i] = (int)strtol(p, &p, 10);
    }
}

static const char *piece(int length, int across, int index) {   /* the .bs code a ship cell shows */
    if (length == 1) return "ss";
    if (index == 0) return across ? "ls" : "us";
    if (index == length - 1) return across ? "rs" : "ds";
    return "ms";
}

static int fits(int r, int c, int length, int across) {
    for (int i = 0; i < length; i++) {
        int y = r + (across ? 0 : i), x = c + (across ? i : 0);
        if (y >= rows || x >= cols) return 0;
        const char *h = hint[y][x];
        if (h[0] && (strcmp(h, "sw") == 0 || (strcmp(h, "xs") != 0 && strcmp(h, piece(length, across, i)) != 0)))
            return 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (y + dy >= 0 && y + dy < rows && x + dx >= 0 && x + dx < cols && ship[y + dy][x + dx]) return 0;
        if (row_left[y] >= 0 && row_left[y] < (across ? length : 1)) return 0;
        if (col_left[x] >= 0 && col_left[x] < (across ? 1 : length)) return 0;
    }
    return 1;
}

static void put(int r, int c, int length, int across, int there, int depth) {
    for (int i = 0; i < length; i++) {
        int y = r + (across ? 0 : i), x = c + (across ? i : 0);
        ship[y][x] = there;
        if (row_left[y] >= 0) row_left[y] += there ? -1 : 1;
        if (col_left[x] >= 0) col_left[x] += there ? -1 : 1;
        printf("{\"kind\":\"%s\",\"cells\":[{\"row\":%d,\"col\":%d,\"state\":\"%s\"}],\"depth\":%d}\n",
               there ? "guess" : "backtrack", y, x, there ? "ship" : "unknown", depth);
    }
}

static int finished(void) {
    for (int i = 0; i < rows; i++) if (row_left[i] > 0) return 0;
    for (int i = 0; i < cols; i++) if (col_left[i] > 0) return 0;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            if (hint[y][x][0] && strcmp(hint[y][x], "sw") != 0 && !ship[y][x]) return 0;
    return 1;
}

static int place(int k, int start) {
    if (k == nships) return finished();
    int length = ships[k], same = k + 1 < nships && ships[k + 1] == length;
    for (int position = start; position < rows * cols; position++)
        for (int across = 1; across >= (length > 1 ? 0 : 1); across--) {
            int r = position / cols, c = position % cols;
            if (!fits(r, c, length, across)) continue;
            nodes++;
            put(r, c, length, across, 1, k + 1);
            if (place(k + 1, same ? position : 0)) return 1;
            put(r, c, length, across, 0, k);
        }
    return 0;
}

int main(void) {
    static char text[1 << 20];
    size_t size = fread(text, 1, sizeof text - 1, stdin);
    text[size] = 0;
    rows = atoi(after(text, "\"rows\":"));
    cols = atoi(after(text, "\"cols\":"));
    if (rows < 1 || cols < 1 || rows > MAX || cols > MAX) { fprintf(stderr, "board too big\n"); return 1; }
    tallies(text, "\"row_numbers\":[", row_left, rows);
    tallies(text, "\"col_numbers\":[", col_left, cols);
    char *p = after(text, "\"fleet\":{");
    while (*p == '"') {                                   /* "4":1,"3":2,... */
        int length = (int)strtol(p + 1, &p, 10), count = (int)strtol(p + 2, &p, 10);
        for (int i = 0; i < count && nships < MAX * MAX; i++) ships[nships++] = length;
        if (*p == ',') p++;
    }
    for (int i = 1; i < nships; i++)                      /* longest first */
        for (int j = i; j > 0 && ships[j] > ships[j - 1]; j--) { int t = ships[j]; ships[j] = ships[j - 1]; ships[j - 1] = t; }
    p = after(text, "\"board\":{");
    while (*p == '"') {                                   /* "r,c":"code",... */
        int r = (int)strtol(p + 1, &p, 10), c = (int)strtol(p + 1, &p, 10);
        if (r >= 0 && r < rows && c >= 0 && c < cols) { hint[r][c][0] = p[3]; hint[r][c][1] = p[4]; }
        p += 6;
        if (*p == ',') p++;
    }
    if (!place(0, 0)) { printf("{\"kind\":\"result\",\"verdict\":\"no_solution\"}\n"); return 0; }
    printf("{\"kind\":\"result\",\"verdict\":\"solved\",\"stats\":{\"nodes\":%ld},\"solution\":[", nodes);
    for (int y = 0; y < rows; y++) {
        printf("%s\"", y ? "," : "");
        for (int x = 0; x < cols; x++) putchar(ship[y][x] ? '#' : '.');
        putchar('"');
    }
    printf("]}\n");
    return 0;
}
