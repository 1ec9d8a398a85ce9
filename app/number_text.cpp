#include "app/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace impactsim {
namespace {

// 10^k, exact in double for k <= 22.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int kMaxExactPow10 = 22;
constexpr int kMaxFastPrecision = 15;  // the digits, below 10^15 < 2^52, are exact in a double

// a b as hi + lo exactly (Dekker's product; hardware FMA is not assumed): each factor is split
// into halves of 26 bits whose products are exact.
struct Split {
  double high, low;
};
Split split(double x) {
  const double c = 134217729.0 * x;  // 2^27 + 1
  const double high = c - (c - x);
  return {high, x - high};
}
void exact_product(double a, double b, double& hi, double& lo) {
  const Split sa = split(a), sb = split(b);
  hi = a * b;
  lo = ((sa.high * sb.high - hi) + sa.high * sb.low + sa.low * sb.high) + sa.low * sb.low;
}

// The p significant digits of a = |x| > 0 correctly rounded (ties to even, as printf and to_chars
// round the exact binary value), as an integer N in [10^(p-1), 10^p) and the decimal exponent e of
// a = N 10^(e-p+1) (rounded). Works when a 10^(p-1-e) can be formed exactly: a normal number times
// a power of ten up to 10^22, split into hi + lo with no rounding at all. Returns false otherwise.
bool round_digits(double a, int p, std::uint64_t& N, int& e) {
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof a);
  const int biased = static_cast<int>(bits >> 52);  // a > 0: no sign bit
  if (biased == 0) return false;                   // subnormal
  // The binary exponent times log10(2) (78913 / 2^18, as in Ryu) is e or e - 1; the loop corrects
  // it, and gives up to to_chars in the unlikely case it cannot.
  e = ((biased - 1023) * 78913) >> 18;
  double hi;
  int k;
  for (int tries = 0;; ++tries) {
    k = p - 1 - e;
    if (k < 0 || k > kMaxExactPow10 || tries == 3) return false;
    hi = a * kPow10[k];  // a 10^k rounded; the exact product is hi + lo, |lo| <= ulp(hi) / 2
    if (hi >= kPow10[p]) ++e;
    else if (hi < kPow10[p - 1]) --e;
    else break;
  }
  // Round hi + lo to an integer. hi < 10^15 has a fraction that is a multiple of its ulp (<= 1/8),
  // so d = frac(hi) - 1/2 is exact, and when d != 0 it outweighs lo: only a tie in hi needs lo.
  N = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi));  // floor: 0 < hi < 2^53
  const double d = (hi - static_cast<double>(N)) - 0.5;
  double side = d;
  if (d == 0) {
    double lo;
    exact_product(a, kPow10[k], hi, lo);
    side = lo;
  }
  if (side > 0 || (side == 0 && (N & 1))) ++N;
  if (static_cast<double>(N) == kPow10[p]) N /= 10, ++e;  // 9.99..5 rounded up to 10.0 (N < 2^53: exact)
  return true;
}

// Writes the `count` digits of n (leading zeros included) backwards, ending just before `end`:
// two at a time from a table, in 32-bit arithmetic below 10^8.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
void put_small(std::uint32_t n, int count, char* end) {
  for (; count >= 2; count -= 2, n /= 100) std::memcpy(end -= 2, kDigitPairs + 2 * (n % 100), 2);
  if (count) *--end = static_cast<char>('0' + n % 10);
}
void put_digits(std::uint64_t n, int count, char* end) {
  if (count > 8) {
    put_small(static_cast<std::uint32_t>(n % 100000000), 8, end);
    n /= 100000000, count -= 8, end -= 8;
  }
  put_small(static_cast<std::uint32_t>(n), count, end);
}

// %g's layout of the p digits of N with decimal exponent e: fixed when -4 <= e < p, else
// d.ddde+XX; trailing zeros of the fraction dropped, and the point with them.
size_t layout(bool negative, std::uint64_t N, int e, int p, char* out) {
  char* o = out;
  *o = '-';
  o += negative;
  const bool exponential = e < -4 || e >= p;
  const int whole = exponential ? 1 : e >= 0 ? e + 1 : 0;  // digits before the point
  int kept = p;
  while (kept > whole && N % 10 == 0) N /= 10, --kept;
  if (whole > 0) {
    // All kept digits one place to the right, then the whole part moved back over the gap and the
    // point put in it: no division by a variable power of ten.
    put_digits(N, kept, o + 1 + kept);
    for (int i = 0; i < whole; ++i) o[i] = o[i + 1];
    o += whole;
    if (kept > whole) {
      *o = '.';
      o += 1 + kept - whole;
    }
  } else {
    std::memcpy(o, "0.000", 5);  // 0.000ddd for e = -4
    o += 1 - e;
    put_digits(N, kept, o + kept);
    o += kept;
  }
  if (exponential) {
    *o++ = 'e';
    *o++ = e < 0 ? '-' : '+';
    const int x = e < 0 ? -e : e;
    if (x >= 100) *o++ = static_cast<char>('0' + x / 100);
    *o++ = static_cast<char>('0' + x / 10 % 10);
    *o++ = static_cast<char>('0' + x % 10);
  }
  return static_cast<size_t>(o - out);
}

}  // namespace

size_t NumberText::write(double x, int precision, char* out) {
  if (x == 0) {  // "0" or "-0"
    const bool negative = std::signbit(x);
    out[0] = '-';
    out[negative] = '0';
    return 1 + negative;
  }
  // The fast path covers finite nonzero numbers whose digits fit below 10^15 and whose scaling
  // power of ten is exact (with 12 digits, 1e-11 <= |x| < 1e12); to_chars (Ryu, exact) does the
  // rest. Both give printf's text: the tests compare them on millions of numbers.
  std::uint64_t N;
  int e;
  if (precision >= 1 && precision <= kMaxFastPrecision && std::isfinite(x) && round_digits(std::fabs(x), precision, N, e))
    return layout(std::signbit(x), N, e, precision, out);
  return static_cast<size_t>(std::to_chars(out, out + kMaxSize, x, std::chars_format::general, precision).ptr - out);
}

}  // namespace impactsim
