#pragma once
// The samples of `impact`: samples.csv (or samples.h5, the same columns) with a row per sample of
// the post-impact set, and the summary of their outcome classes that impact prints and writes to
// summary.json. Samples are formatted on worker threads (format) and appended in sample order.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/csv_writer.hpp"
#include "app/hdf5_table.hpp"
#include "impact/impact_law.hpp"
#include "impact/outcome_class.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

// The summary names each contact's class in a combination up to this many contacts.
constexpr int kNamedContacts = 12;

struct Table {
  std::vector<std::string> columns;
  std::vector<std::string> contact_names;
};

// The columns of samples.csv for the contact space's impact: the sample, v+, each contact's
// J_n v+ and J_t v+, energies and counts, each contact's class.
Table sample_columns(const Scene& scene, const ContactSpace& c);

// Class counts and ranges are over accepted samples only (sample_status).
struct Summary {
  long samples = 0, accepted = 0, collide = 0, failed = 0, solves = 0;
  std::string first_failure;  // the diagnostic of the first failed sample, in file order
  std::map<std::string, long> joint;                           // one class digit per contact -> count
  std::vector<std::array<long, kOutcomeClasses>> per_contact;  // class -> count
  std::vector<double> vn_min, vn_max, vt_min, vt_max;
};

// A sample formatted for samples.csv (line) or samples.h5 (numbers and labels, in column order),
// with what the summary needs; made on worker threads.
struct FormattedSample {
  std::string line;
  size_t cells = 0;
  std::vector<double> numbers;
  std::vector<std::string_view> labels;
  std::string joint;  // one digit '0' + class per contact: a key for any number of contacts
  std::vector<OutcomeClass> classes;
  Eigen::VectorXd vn, vt;  // vt: |J_t v+| per contact
  Eigen::VectorXd vt_each;  // J_t v+, kept storage for format
  SampleStatus status = SampleStatus::accepted;
  std::string diagnostic;  // failed samples only
  int solves = 0;
};

class SampleWriter {
 public:
  // The table goes to path: samples.csv's format, or with hdf5 an Hdf5Table of the same columns,
  // chunked for `expected_rows` rows.
  SampleWriter(const std::string& path, const Scene& scene, const ContactSpace& c, double tol, bool hdf5 = false,
               std::size_t expected_rows = Hdf5Table::kMaxChunkRows);

  // Thread-safe: reads only what the constructor set.
  void format(long index, const ImpactResult& r, FormattedSample& f) const;

  void append(const FormattedSample& f);

  void write(long index, const ImpactResult& r);

  void flush() { h5_ ? h5_->flush() : csv_->flush(); }

  void print(std::ostream& out, double seconds, bool timed) const;

  long rows() const { return h5_ ? h5_->rows() : csv_->rows(); }

  // DIR/summary.json: what print() shows, as numbers. Class counts are over accepted samples;
  // combinations are labelled as in print(), most frequent first.
  std::string json_text() const;

  // The summary line of one combination of classes (one digit per contact, as FormattedSample::joint).
  std::string joint_label(const std::string& code, int m) const;
  long unclassified() const { return summary_.samples - summary_.accepted; }

  // (count, label) of every combination of classes, most frequent first.
  std::vector<std::pair<long, std::string>> sorted_combinations() const;

 private:
  const ContactSpace& c_;
  double tol_;
  Table table_;
  // Wide enough for every class and status name (outcome_class.hpp).
  static constexpr size_t kLabelWidth = 8;
  std::optional<CsvWriter> csv_;     // samples.csv
  std::unique_ptr<Hdf5Table> h5_;    // or samples.h5
  Summary summary_;
  int precision_ = 12;
};



}  // namespace impactsim
