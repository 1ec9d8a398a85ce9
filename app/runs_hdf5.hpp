#pragma once
// runs.h5: a batch's runs.csv as an HDF5 table (app/hdf5_table.hpp), for h5py and pandas. runs.csv
// stays the batch's working file (resume, merge and slices read it); `batch --format hdf5` writes
// runs.h5 from it once the batch is complete. The values are runs.csv's own, to its printed digits.
// A column whose every non-empty cell is a number becomes a 64-bit float dataset (an empty cell,
// such as t_rest of a run that never rests, is NaN); `seed` (64-bit seeds do not fit a double),
// `status`, `reason`, `message` and any other column become fixed-length strings, as wide as the
// longest such cell.
#include <filesystem>

namespace impactsim {

// Writes `h5` (replacing it) from the complete rows of the runs.csv at `csv`; returns the rows
// written. Throws std::runtime_error naming the file on a read or write failure.
long write_runs_hdf5(const std::filesystem::path& csv, const std::filesystem::path& h5);

}  // namespace impactsim
