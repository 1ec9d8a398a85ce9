#pragma once
// A double as printf's "%.<precision>g" prints it (the same text as std::to_chars in general format
// with that precision, and as a stream's operator<< with that precision), without allocating. How
// every CSV file of impactsim prints its numbers.
#include <cstddef>
#include <string_view>

namespace impactsim {

class NumberText {
 public:
  // precision: significant digits, 1 to 17.
  NumberText(double x, int precision) : size_(write(x, precision, text_)) {}
  std::string_view view() const { return {text_, size_}; }

  // The same text written to out, which has room for kMaxSize characters; returns its length.
  static size_t write(double x, int precision, char* out);
  static constexpr size_t kMaxSize = 32;

 private:
  char text_[kMaxSize];
  size_t size_;
};

}  // namespace impactsim
