#pragma once
// SHA-256 (FIPS 180-4), for recording which scene text a result came from.
#include <string>
#include <string_view>

namespace impactsim {

// The digest of `data` as 64 lowercase hexadecimal digits.
std::string sha256_hex(std::string_view data);

}  // namespace impactsim
