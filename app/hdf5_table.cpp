#include "app/hdf5_table.hpp"

#include <algorithm>
#include <stdexcept>

#include <hdf5.h>
#include <spdlog/spdlog.h>

namespace impactsim {

namespace {

// HDF5's own error stack printing is turned off: failures are reported as exceptions naming the file.
void quiet_hdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

}  // namespace

struct Hdf5Table::Handles {
  hid_t file = -1;
  hid_t label_type = -1;
  std::vector<hid_t> datasets;  // per column
  ~Handles() {
    for (hid_t d : datasets)
      if (d >= 0) H5Dclose(d);
    if (label_type >= 0) H5Tclose(label_type);
    if (file >= 0) H5Fclose(file);
  }
};

Hdf5Table::Hdf5Table(const std::string& path, const std::vector<Column>& columns, std::size_t label_width,
                     std::size_t expected_rows)
    : path_(path), columns_(columns), label_width_(std::max<std::size_t>(1, label_width)), h_(std::make_unique<Handles>()) {
  quiet_hdf5();
  auto fail = [&](const std::string& what) { throw std::runtime_error(path_ + ": cannot write HDF5 (" + what + ")"); };
  h_->file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (h_->file < 0) fail("cannot create the file");
  h_->label_type = H5Tcopy(H5T_C_S1);
  if (h_->label_type < 0 || H5Tset_size(h_->label_type, label_width_) < 0 || H5Tset_strpad(h_->label_type, H5T_STR_NULLPAD) < 0)
    fail("string type");
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = std::clamp<hsize_t>(expected_rows, 1, kMaxChunkRows);
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, 1, &chunk);
  bool ok = space >= 0 && create >= 0;
  for (const Column& c : columns_) {
    if (!ok) break;
    const hid_t d = H5Dcreate2(h_->file, c.name.c_str(), c.label ? h_->label_type : H5T_IEEE_F64LE, space, H5P_DEFAULT,
                               create, H5P_DEFAULT);
    h_->datasets.push_back(d);
    ok = d >= 0;
    if (c.label) label_buffers_.emplace_back();
    else number_buffers_.emplace_back();
  }
  if (create >= 0) H5Pclose(create);
  if (space >= 0) H5Sclose(space);
  if (!ok) fail("dataset '" + columns_[h_->datasets.size() - 1].name + "'");
  // The column order, as one attribute of variable-length strings.
  std::vector<const char*> names;
  for (const Column& c : columns_) names.push_back(c.name.c_str());
  const hsize_t count = names.size();
  const hid_t names_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(names_type, H5T_VARIABLE);
  const hid_t names_space = H5Screate_simple(1, &count, nullptr);
  const hid_t attribute = H5Acreate2(h_->file, "columns", names_type, names_space, H5P_DEFAULT, H5P_DEFAULT);
  ok = attribute >= 0 && H5Awrite(attribute, names_type, names.data()) >= 0;
  if (attribute >= 0) H5Aclose(attribute);
  H5Sclose(names_space);
  H5Tclose(names_type);
  if (!ok) fail("attribute 'columns'");
}

namespace {

// HDF5 closes the files left open at exit; one whose close failed (a full disk) makes that cleanup
// crash inside the library. Every table closes its file itself, so the library's own is not
// needed: it is turned off before HDF5 is first used.
const bool kNoCleanupAtExit = [] {
  H5dont_atexit();
  return true;
}();

}  // namespace

Hdf5Table::~Hdf5Table() {
  if (failed_) return;  // the failure was thrown; a second try would only repeat it
  try {
    flush();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
  }
}

void Hdf5Table::row(const std::vector<double>& numbers, const std::vector<std::string_view>& labels) {
  if (numbers.size() != number_buffers_.size() || labels.size() != label_buffers_.size())
    throw std::invalid_argument(path_ + ": a row of " + std::to_string(numbers.size()) + " numbers and " +
                                std::to_string(labels.size()) + " labels for " + std::to_string(number_buffers_.size()) +
                                " and " + std::to_string(label_buffers_.size()) + " columns");
  for (std::string_view l : labels)
    if (l.size() > label_width_)
      throw std::invalid_argument(path_ + ": label '" + std::string(l) + "' wider than " + std::to_string(label_width_));
  for (std::size_t k = 0; k < numbers.size(); ++k) number_buffers_[k].push_back(numbers[k]);
  for (std::size_t k = 0; k < labels.size(); ++k) {
    label_buffers_[k].append(labels[k]);
    label_buffers_[k].append(label_width_ - labels[k].size(), '\0');
  }
  ++rows_;
}

void Hdf5Table::flush() {
  const hsize_t start = static_cast<hsize_t>(written_), count = static_cast<hsize_t>(rows_ - written_);
  if (count == 0) return;
  const hsize_t size = start + count;
  const hid_t memory = H5Screate_simple(1, &count, nullptr);
  bool ok = memory >= 0;
  std::size_t number = 0, label = 0;
  for (std::size_t c = 0; c < columns_.size() && ok; ++c) {
    const hid_t d = h_->datasets[c];
    ok = H5Dset_extent(d, &size) >= 0;
    const hid_t file_space = ok ? H5Dget_space(d) : -1;
    ok = ok && file_space >= 0 && H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &count, nullptr) >= 0;
    if (ok) {
      const void* data = columns_[c].label ? static_cast<const void*>(label_buffers_[label].data())
                                           : static_cast<const void*>(number_buffers_[number].data());
      ok = H5Dwrite(d, columns_[c].label ? h_->label_type : H5T_NATIVE_DOUBLE, memory, file_space, H5P_DEFAULT, data) >= 0;
    }
    if (file_space >= 0) H5Sclose(file_space);
    columns_[c].label ? ++label : ++number;
  }
  if (memory >= 0) H5Sclose(memory);
  ok = ok && H5Fflush(h_->file, H5F_SCOPE_LOCAL) >= 0;
  if (!ok) {
    failed_ = true;
    throw std::runtime_error(path_ + ": HDF5 write failed (disk full or file removed?)");
  }
  for (auto& b : number_buffers_) b.clear();
  for (auto& b : label_buffers_) b.clear();
  written_ = rows_;
}

}  // namespace impactsim
