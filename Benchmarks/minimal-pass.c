/* The floor of NMEA decoding, for the benchmark: one pass over standard input that checks
 * every sentence's checksum and converts every GGA and RMC coordinate to degrees, and
 * nothing else (no fields validated, no fix merged, nothing printed but the totals).
 * Build: cc -O2 -o minimal-pass minimal-pass.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* ddmm.mmmm (or dddmm.mmmm) to degrees. */
static double angle(const char *field, const char *end) {
  double value = strtod(field, NULL);
  (void)end;
  int degrees = (int)(value / 100);
  return degrees + (value - degrees * 100) / 60;
}

static long good, bad;
static double total;

static void sentence(const char *line, size_t length) {
  if (length < 4 || (line[0] != '$' && line[0] != '!')) return;
  const char *star = memchr(line, '*', length);
  if (!star || star + 3 > line + length) { bad++; return; }
  unsigned char sum = 0;
  for (const char *p = line + 1; p < star; p++) sum ^= (unsigned char)*p;
  int high = hex(star[1]), low = hex(star[2]);
  if (high < 0 || low < 0 || (unsigned char)(high << 4 | low) != sum) { bad++; return; }
  good++;
  /* Fields of GGA (lat 2, lon 4) and RMC (lat 3, lon 5), counting the address as 0. */
  int latitudeField = 0;
  if (star - line > 6 && memcmp(line + 3, "GGA,", 4) == 0) latitudeField = 2;
  if (star - line > 6 && memcmp(line + 3, "RMC,", 4) == 0) latitudeField = 3;
  if (!latitudeField) return;
  int field = 0;
  for (const char *p = line; p < star; p++) {
    if (*p != ',') continue;
    field++;
    if ((field == latitudeField || field == latitudeField + 2) && p[1] != ',') total += angle(p + 1, star);
  }
}

int main(void) {
  static char buffer[1 << 16];
  static char carry[512];
  size_t carried = 0;
  ssize_t count;
  while ((count = read(0, buffer, sizeof buffer)) > 0) {
    char *start = buffer, *end = buffer + count;
    for (char *newline; (newline = memchr(start, '\n', (size_t)(end - start))); start = newline + 1) {
      size_t length = (size_t)(newline - start);
      if (carried) {
        if (carried + length < sizeof carry) {
          memcpy(carry + carried, start, length);
          sentence(carry, carried + length);
        }
        carried = 0;
      } else {
        sentence(start, length);
      }
    }
    size_t rest = (size_t)(end - start);
    if (carried + rest < sizeof carry) {
      memcpy(carry + carried, start, rest);
      carried += rest;
    } else {
      carried = 0;
    }
  }
  printf("%ld good, %ld bad, %f\n", good, bad, total);
  return 0;
}
