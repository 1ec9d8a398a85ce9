#pragma once
// Reads back what Hdf5Table writes, through the HDF5 C API alone (an independent reader).
#include <string>
#include <vector>

#include <hdf5.h>

namespace impactsim::testing {

struct Hdf5File {
  hid_t id;
  explicit Hdf5File(const std::string& path) : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~Hdf5File() {
    if (id >= 0) H5Fclose(id);
  }
  bool ok() const { return id >= 0; }

  long length(const std::string& name) const {
    const hid_t d = H5Dopen2(id, name.c_str(), H5P_DEFAULT);
    if (d < 0) return -1;
    const hid_t space = H5Dget_space(d);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space, &n, nullptr);
    H5Sclose(space);
    H5Dclose(d);
    return static_cast<long>(n);
  }

  std::vector<double> numbers(const std::string& name) const {
    std::vector<double> out(static_cast<size_t>(std::max(0L, length(name))));
    const hid_t d = H5Dopen2(id, name.c_str(), H5P_DEFAULT);
    if (d >= 0 && !out.empty()) H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
    if (d >= 0) H5Dclose(d);
    return out;
  }

  // Fixed-length strings, NUL padding removed.
  std::vector<std::string> labels(const std::string& name) const {
    const long n = length(name);
    const hid_t d = H5Dopen2(id, name.c_str(), H5P_DEFAULT);
    if (d < 0 || n <= 0) {
      if (d >= 0) H5Dclose(d);
      return {};
    }
    const hid_t type = H5Dget_type(d);
    const size_t width = H5Tget_size(type);
    std::string raw(width * static_cast<size_t>(n), '\0');
    H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data());
    H5Tclose(type);
    H5Dclose(d);
    std::vector<std::string> out;
    for (long k = 0; k < n; ++k) out.push_back(std::string(raw.c_str() + k * width, strnlen(raw.c_str() + k * width, width)));
    return out;
  }

  // The root attribute `columns` (variable-length strings).
  std::vector<std::string> columns() const {
    const hid_t a = H5Aopen(id, "columns", H5P_DEFAULT);
    if (a < 0) return {};
    const hid_t space = H5Aget_space(a);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space, &n, nullptr);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    std::vector<char*> names(n, nullptr);
    H5Aread(a, type, names.data());
    std::vector<std::string> out(names.begin(), names.end());
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, names.data());
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(a);
    return out;
  }
};

}  // namespace impactsim::testing
