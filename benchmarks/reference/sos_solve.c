/*
 * A plain reference solver for two-player SOS, to measure the project's solver against.
 *
 *     cc -O2 -o sos_solve sos_solve.c
 *     ./sos_solve ROWSxCOLS general|simple [TABLE_BITS]
 *
 * prints one line: "value V nodes N seconds T". The value is the first player's, with best
 * play from both sides. General mode: the mover's future points minus the opponent's (a move
 * completing k lines scores k and the same player moves again, so it is worth k plus the value
 * after it; a quiet move is worth minus the value after it). Simple mode: the first SOS wins,
 * +1 / 0 (full board, no SOS) / -1.
 *
 * What it does: negamax alpha-beta with a full window, over one transposition table of
 * 2^TABLE_BITS entries (28 by default: 2 GiB), each one 64-bit word holding the position
 * (base-3 board, exact), the value, whether it is exact or a bound, and the best move; new
 * entries always replace old ones. Moves are tried in this order: the table's best move, then
 * moves that score (most lines first), then quiet moves that hand the opponent no line, then
 * the others. In simple mode a position with a scoring move is won at once, and one where every
 * quiet move hands over a line is lost. Neither side can gain more than the lines not yet
 * completed. No symmetries, no bound from the lines still open, no parallel search: a plain
 * competent program, standard C, no dependencies.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CELLS 40
#define MAX_LINES 8
#define EMPTY 0
#define S 1
#define O 2
#define NO_MOVE 127
#define EXACT 1
#define LOWER 2
#define UPPER 3

/* For each cell: the lines an S there can complete (pairs: the middle, which needs an O; the
 * far end, which needs an S) and those an O there can complete (pairs: both ends, need S). */
static int s_count[MAX_CELLS], s_pairs[MAX_CELLS][MAX_LINES][2];
static int o_count[MAX_CELLS], o_pairs[MAX_CELLS][4][2];
static int board[MAX_CELLS];
static int cells, total_lines, simple_mode;
static uint64_t power3[MAX_CELLS];
static uint64_t *table;
static unsigned table_bits;
static uint64_t nodes;

static int completes(int cell, int letter) {
    int count = 0;
    if (letter == S) {
        for (int k = 0; k < s_count[cell]; k++)
            count += board[s_pairs[cell][k][0]] == O && board[s_pairs[cell][k][1]] == S;
    } else {
        for (int k = 0; k < o_count[cell]; k++)
            count += board[o_pairs[cell][k][0]] == S && board[o_pairs[cell][k][1]] == S;
    }
    return count;
}

/* The lines a quiet move leaves one letter short of an SOS, for the opponent to take. */
static int hands_over(int cell, int letter) {
    int count = 0;
    if (letter == S) {
        for (int k = 0; k < s_count[cell]; k++) {
            int middle = board[s_pairs[cell][k][0]], far = board[s_pairs[cell][k][1]];
            count += (middle == O && far == EMPTY) || (middle == EMPTY && far == S);
        }
    } else {
        for (int k = 0; k < o_count[cell]; k++) {
            int a = board[o_pairs[cell][k][0]], b = board[o_pairs[cell][k][1]];
            count += (a == S && b == EMPTY) || (a == EMPTY && b == S);
        }
    }
    return count;
}

/* An entry: bits 0-1 kind (0 free), 2-9 value + 128, 10-16 best move, 17-63 the position's
 * hash shifted right by table_bits. The hash is a bijection of the base-3 key, so the slot
 * and the stored bits together name the position exactly. */
static uint64_t mix(uint64_t key) { return key * 0x9E3779B97F4A7C15ULL; }

static int probe(uint64_t key, int *value, int *kind, int *move) {
    uint64_t hash = mix(key);
    uint64_t entry = table[hash & ((1ULL << table_bits) - 1)];
    if ((entry & 3) == 0 || entry >> 17 != hash >> table_bits) return 0;
    *kind = (int)(entry & 3);
    *value = (int)((entry >> 2) & 255) - 128;
    *move = (int)((entry >> 10) & 127);
    return 1;
}

static void store(uint64_t key, int value, int kind, int move) {
    uint64_t hash = mix(key);
    table[hash & ((1ULL << table_bits) - 1)] = (hash >> table_bits) << 17 |
                                                (uint64_t)move << 10 |
                                                (uint64_t)(value + 128) << 2 | (uint64_t)kind;
}

/* The value for the side to move, fail-soft, within (alpha, beta). */
static int search(uint64_t key, int empty, int scored, int alpha, int beta) {
    nodes++;
    if (empty == 0) return 0;
    int left = total_lines - scored; /* no side can gain more than the lines not yet made */
    if (left <= alpha) return left;
    if (-left >= beta) return -left;
    int alpha0 = alpha, stored, kind, hint = NO_MOVE;
    if (probe(key, &stored, &kind, &hint)) {
        if (kind == EXACT) return stored;
        if (kind == LOWER && stored > alpha) alpha = stored;
        if (kind == UPPER && stored < beta) beta = stored;
        if (alpha >= beta) return stored;
    }
    /* The moves, in three groups: scoring (by lines), safe quiet, the rest. */
    int moves[2 * MAX_CELLS], gains[2 * MAX_CELLS], n = 0, n_scoring = 0;
    int safe[2 * MAX_CELLS], n_safe = 0, unsafe[2 * MAX_CELLS], n_unsafe = 0;
    for (int cell = 0; cell < cells; cell++) {
        if (board[cell] != EMPTY) continue;
        for (int letter = S; letter <= O; letter++) {
            int code = 2 * cell + letter - 1, gain = completes(cell, letter);
            if (gain > 0) {
                if (simple_mode) {
                    store(key, 1, EXACT, code);
                    return 1;
                }
                int at = n_scoring++;
                while (at > 0 && gains[at - 1] < gain) {
                    moves[at] = moves[at - 1];
                    gains[at] = gains[at - 1];
                    at--;
                }
                moves[at] = code;
                gains[at] = gain;
            } else if (hands_over(cell, letter) == 0) {
                safe[n_safe++] = code;
            } else {
                unsafe[n_unsafe++] = code;
            }
        }
    }
    if (simple_mode && n_safe == 0) return -1; /* every move hands over an SOS */
    n = n_scoring;
    for (int i = 0; i < n_safe; i++) gains[n] = 0, moves[n++] = safe[i];
    if (!simple_mode)
        for (int i = 0; i < n_unsafe; i++) gains[n] = 0, moves[n++] = unsafe[i];
    if (hint != NO_MOVE)
        for (int i = 0; i < n; i++)
            if (moves[i] == hint) {
                int gain = gains[i];
                memmove(moves + 1, moves, i * sizeof *moves);
                memmove(gains + 1, gains, i * sizeof *gains);
                moves[0] = hint;
                gains[0] = gain;
                break;
            }
    int best = -1000, best_move = NO_MOVE;
    for (int i = 0; i < n && alpha < beta; i++) {
        int cell = moves[i] >> 1, letter = (moves[i] & 1) + 1, gain = gains[i], value;
        board[cell] = letter;
        uint64_t child = key + (uint64_t)letter * power3[cell];
        if (gain > 0)
            value = gain + search(child, empty - 1, scored + gain, alpha - gain, beta - gain);
        else
            value = -search(child, empty - 1, scored, -beta, -alpha);
        board[cell] = EMPTY;
        if (value > best) {
            best = value;
            best_move = moves[i];
            if (value > alpha) alpha = value;
        }
    }
    kind = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    store(key, best, kind, best_move);
    return best;
}

static void add_line(int a, int b, int c) {
    s_pairs[a][s_count[a]][0] = b, s_pairs[a][s_count[a]++][1] = c;
    s_pairs[c][s_count[c]][0] = b, s_pairs[c][s_count[c]++][1] = a;
    o_pairs[b][o_count[b]][0] = a, o_pairs[b][o_count[b]++][1] = c;
    total_lines++;
}

int main(int argc, char **argv) {
    int rows, cols;
    if (argc < 3 || sscanf(argv[1], "%dx%d", &rows, &cols) != 2 ||
        (strcmp(argv[2], "general") && strcmp(argv[2], "simple"))) {
        fprintf(stderr, "usage: %s ROWSxCOLS general|simple [TABLE_BITS]\n", argv[0]);
        return 2;
    }
    table_bits = argc > 3 ? (unsigned)atoi(argv[3]) : 28;
    cells = rows * cols;
    if (rows < 1 || cols < 1 || cells > MAX_CELLS || table_bits < 17 || table_bits > 34) {
        fprintf(stderr, "a board of at most %d cells, TABLE_BITS 17 to 34\n", MAX_CELLS);
        return 2;
    }
    simple_mode = strcmp(argv[2], "simple") == 0;
    static const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int d = 0; d < 4; d++) {
                int r2 = r + 2 * directions[d][0], c2 = c + 2 * directions[d][1];
                if (r2 >= 0 && r2 < rows && c2 >= 0 && c2 < cols)
                    add_line(r * cols + c, (r + directions[d][0]) * cols + c + directions[d][1],
                             r2 * cols + c2);
            }
    power3[0] = 1;
    for (int i = 1; i < cells; i++) power3[i] = 3 * power3[i - 1];
    table = calloc((size_t)1 << table_bits, sizeof *table);
    if (!table) {
        fprintf(stderr, "no memory for 2^%u table entries\n", table_bits);
        return 1;
    }
    struct timespec start, end;
    timespec_get(&start, TIME_UTC);
    int value = search(0, cells, 0, -1000, 1000);
    timespec_get(&end, TIME_UTC);
    double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    printf("value %d nodes %llu seconds %.2f\n", value, (unsigned long long)nodes, seconds);
    free(table);
    return 0;
}
