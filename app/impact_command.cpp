// impactsim impact: resolve the impact at a scene's initial state many times (Halm and Posa's
// Algorithm 2) and write DIR/samples.csv, or list every Anitescu-Potra solution or every cyclic
// sequential ordering in the same format.
#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/hdf5_table.hpp"
#include "app/parallel_map.hpp"
#include "app/plot_output.hpp"
#include "app/progress.hpp"
#include "app/metadata.hpp"
#include "app/sample_seed.hpp"
#include "core/first_impact.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "impact/outcome_class.hpp"
#include "impact/sequential.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

const char* class_name(int c) { return outcome_class_name(static_cast<OutcomeClass>(c)); }

// The summary names each contact's class in a combination up to this many contacts.
constexpr int kNamedContacts = 12;

struct Table {
  std::vector<std::string> columns;
  std::vector<std::string> contact_names;
};

Table sample_columns(const Scene& scene, const ContactSpace& c) {
  Table t;
  t.columns = {"sample"};
  const Model& model = scene.system.model;
  t.columns.insert(t.columns.end(), model.v_names.begin(), model.v_names.end());
  for (int id : c.ids) t.contact_names.push_back(scene.system.contacts.contact(id).name);
  for (const std::string& n : t.contact_names) {
    t.columns.push_back(n + ".vn");
    if (c.tangent_dim == 1) t.columns.push_back(n + ".vt");
    else {
      t.columns.push_back(n + ".vt1");
      t.columns.push_back(n + ".vt2");
    }
  }
  for (const char* extra : {"kinetic_energy", "lcp_solves", "terminated"}) t.columns.push_back(extra);
  for (const std::string& n : t.contact_names) t.columns.push_back(n + ".class");
  return t;
}

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
  // The table goes to path: samples.csv's format, or with hdf5 an Hdf5Table of the same columns.
  SampleWriter(const std::string& path, const Scene& scene, const ContactSpace& c, double tol, bool hdf5 = false)
      : c_(c), tol_(tol), table_(sample_columns(scene, c)) {
    if (hdf5) {
      std::vector<Hdf5Table::Column> columns;
      const size_t m = table_.contact_names.size();
      for (size_t k = 0; k < table_.columns.size(); ++k) columns.push_back({table_.columns[k], k + m >= table_.columns.size()});
      h5_ = std::make_unique<Hdf5Table>(path, columns, kLabelWidth);
    } else {
      csv_.emplace(path, table_.columns, scene.output.precision);
    }
    const int m = c.contacts();
    summary_.per_contact.assign(m, {0, 0, 0, 0});
    summary_.vn_min.assign(m, INFINITY);
    summary_.vn_max.assign(m, -INFINITY);
    summary_.vt_min.assign(m, INFINITY);
    summary_.vt_max.assign(m, -INFINITY);
    precision_ = scene.output.precision;
  }

  // Thread-safe: reads only what the constructor set.
  void format(long index, const ImpactResult& r, FormattedSample& f) const {
    f.line.clear();
    f.cells = 0;
    f.numbers.clear();
    f.labels.clear();
    const bool binary = h5_ != nullptr;
    auto text = [&](std::string_view t) {
      if (binary) return f.labels.push_back(t);  // only static names come here
      if (f.cells++) f.line += ',';
      f.line += t;
    };
    auto number = [&](double x) {
      if (binary) return f.numbers.push_back(x);
      if (f.cells++) f.line += ',';
      f.line += NumberText(x, precision_).view();
    };
    auto whole = [&](long k) {
      if (binary) return f.numbers.push_back(static_cast<double>(k));
      if (f.cells++) f.line += ',';
      f.line += std::to_string(k);
    };
    whole(index);
    for (double x : r.v_plus) number(x);
    const int m = c_.contacts(), td = c_.tangent_dim;
    f.vn.noalias() = c_.J_n * r.v_plus;
    Eigen::VectorXd& vt = f.vt_each;
    vt.noalias() = c_.J_t * r.v_plus;
    f.vt.resize(m);
    for (int i = 0; i < m; ++i) {
      number(f.vn[i]);
      for (int k = 0; k < td; ++k) number(vt[i * td + k]);
      f.vt[i] = vt.segment(i * td, td).norm();
    }
    number(r.kinetic_energy_plus);
    whole(r.lcp_solves);
    whole(r.terminated ? 1 : 0);
    f.status = sample_status(r);
    f.diagnostic.clear();
    if (f.status == SampleStatus::failed) f.diagnostic = r.diagnostic;
    f.classes.resize(m);
    f.joint.assign(m, '0');
    for (int i = 0; i < m; ++i) {
      f.classes[i] = outcome_class(c_, r.v_plus, i, tol_);
      text(f.status == SampleStatus::accepted ? outcome_class_name(f.classes[i]) : sample_status_name(f.status));
      f.joint[i] = static_cast<char>('0' + static_cast<int>(f.classes[i]));
    }
    f.solves = r.lcp_solves;
  }

  void append(const FormattedSample& f) {
    if (h5_) h5_->row(f.numbers, f.labels);
    else csv_->line(f.line, f.cells);
    ++summary_.samples;
    summary_.solves += f.solves;
    if (f.status == SampleStatus::collide) ++summary_.collide;
    if (f.status == SampleStatus::failed && summary_.failed++ == 0) summary_.first_failure = f.diagnostic;
    if (f.status != SampleStatus::accepted) return;
    ++summary_.accepted;
    for (size_t i = 0; i < f.classes.size(); ++i) {
      ++summary_.per_contact[i][static_cast<int>(f.classes[i])];
      summary_.vn_min[i] = std::min(summary_.vn_min[i], f.vn[i]);
      summary_.vn_max[i] = std::max(summary_.vn_max[i], f.vn[i]);
      summary_.vt_min[i] = std::min(summary_.vt_min[i], f.vt[i]);
      summary_.vt_max[i] = std::max(summary_.vt_max[i], f.vt[i]);
    }
    ++summary_.joint[f.joint];
  }

  void write(long index, const ImpactResult& r) {
    FormattedSample f;
    format(index, r, f);
    append(f);
  }

  void flush() { h5_ ? h5_->flush() : csv_->flush(); }

  void print(std::ostream& out, double seconds, bool timed) const {
    const Summary& s = summary_;
    out << "samples      " << s.samples << " (" << s.accepted << " accepted";
    if (s.collide) out << "; " << s.collide << " collide: a contact still approached at the step cap";
    if (s.failed) out << "; " << s.failed << " failed";
    out << ")\n";
    if (s.failed) out << "failed       first: " << s.first_failure << "\n";
    out << "outcomes     (per accepted sample, "
        << (static_cast<int>(table_.contact_names.size()) <= kNamedContacts ? "every contact's class" : "how many contacts in each class")
        << ")\n";
    // Up to kNamedContacts contacts a combination names every contact's class; beyond, a line per
    // combination would be unreadable, so combinations with the same number of contacts in each
    // class are merged into one line of counts.
    const std::vector<std::pair<long, std::string>> joint = sorted_combinations();
    for (size_t k = 0; k < joint.size() && k < 12; ++k)
      out << "  " << joint[k].second << "  " << joint[k].first << " (" << 100.0 * joint[k].first / s.accepted << "%)\n";
    if (joint.size() > 12) out << "  ... " << joint.size() - 12 << " more combinations\n";
    out << "contacts     class counts; ranges of J_n v+ and |J_t v+| [m/s]\n";
    for (size_t i = 0; i < table_.contact_names.size() && s.accepted; ++i) {
      out << "  " << table_.contact_names[i] << ":";
      for (int k = 0; k < kOutcomeClasses; ++k)
        if (s.per_contact[i][k]) out << " " << class_name(k) << " " << s.per_contact[i][k];
      out << "; vn [" << s.vn_min[i] << ", " << s.vn_max[i] << "], |vt| [" << s.vt_min[i] << ", " << s.vt_max[i]
          << "]\n";
    }
    out << "lcp solves   " << static_cast<double>(s.solves) / std::max(1L, s.samples) << " per sample\n";
    if (timed)
      out << "timing       " << seconds << " s, " << static_cast<long>(s.samples / std::max(seconds, 1e-12))
          << " samples per second\n";
  }

  long rows() const { return h5_ ? h5_->rows() : csv_->rows(); }

  // DIR/summary.json: what print() shows, as numbers. Class counts are over accepted samples;
  // combinations are labelled as in print(), most frequent first.
  std::string json_text() const {
    using Json = nlohmann::ordered_json;
    const Summary& s = summary_;
    Json j;
    j["samples"] = s.samples;
    j["accepted"] = s.accepted;
    j["collide"] = s.collide;
    j["failed"] = s.failed;
    j["lcp_solves_per_sample"] = static_cast<double>(s.solves) / std::max(1L, s.samples);
    Json contacts = Json::object();
    for (size_t i = 0; i < table_.contact_names.size(); ++i) {
      Json classes = Json::object();
      for (int k = 0; k < kOutcomeClasses; ++k) classes[class_name(k)] = s.per_contact[i][k];
      Json c = {{"classes", classes}};
      if (s.accepted) {
        c["vn"] = {s.vn_min[i], s.vn_max[i]};
        c["vt"] = {s.vt_min[i], s.vt_max[i]};
      }
      contacts[table_.contact_names[i]] = c;
    }
    j["contacts"] = contacts;
    Json combinations = Json::array();
    for (const auto& [n, label] : sorted_combinations()) combinations.push_back({{"classes", label}, {"count", n}});
    j["combinations"] = combinations;
    return j.dump(2) + "\n";
  }

  // The summary line of one combination of classes (one digit per contact, as FormattedSample::joint).
  std::string joint_label(const std::string& code, int m) const {
    std::string label;
    if (m <= kNamedContacts) {
      for (int i = 0; i < m; ++i) label += (i ? " " : "") + table_.contact_names[i] + ":" + class_name(code[i] - '0');
      return label;
    }
    std::array<int, kOutcomeClasses> count{};
    for (char digit : code) ++count[digit - '0'];
    for (int k = 0; k < kOutcomeClasses; ++k)
      if (count[k]) label += (label.empty() ? "" : " ") + std::string(class_name(k)) + ":" + std::to_string(count[k]);
    return label;
  }
  long unclassified() const { return summary_.samples - summary_.accepted; }

  // (count, label) of every combination of classes, most frequent first.
  std::vector<std::pair<long, std::string>> sorted_combinations() const {
    std::map<std::string, long> by_label;
    const int m = static_cast<int>(table_.contact_names.size());
    for (const auto& [code, n] : summary_.joint) by_label[joint_label(code, m)] += n;
    std::vector<std::pair<long, std::string>> joint;
    for (const auto& [label, n] : by_label) joint.emplace_back(n, label);
    std::sort(joint.rbegin(), joint.rend());
    return joint;
  }

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

// Every Anitescu-Potra solution; false, with `why`, when the LCP is too large to enumerate its
// 2^n complementary bases.
bool write_ap_solutions(SampleWriter& writer, const ContactSpace& space, const Eigen::VectorXd& v_minus,
                        std::string& why) {
  std::vector<ImpactResult> all;
  try {
    all = anitescu_potra_all_solutions(space, v_minus);
  } catch (const std::invalid_argument& e) {
    why = e.what();
    return false;
  }
  for (size_t k = 0; k < all.size(); ++k) writer.write(static_cast<long>(k), all[k]);
  return true;
}

// Every cyclic sequential ordering, one starting at each contact; `print` lists them on stdout.
void write_orderings(SampleWriter& writer, const Scene& scene, const ContactSpace& space,
                     const Eigen::VectorXd& v_minus, unsigned long long seed, bool print) {
  for (int j = 0; j < space.contacts(); ++j) {
    SequentialSettings s = sequential_settings(scene.laws.of("sequential"));
    s.order = SequentialSettings::Order::cyclic;
    s.start = space.ids[j];
    Rng rng(sample_seed(seed, j));
    const ImpactResult r = SequentialLaw(s).resolve(space, v_minus, rng);
    std::string order;
    for (int i : r.ordering) order += (order.empty() ? "" : ",") + scene.system.contacts.contact(space.ids[i]).name;
    if (print) std::cout << "ordering " << j << ": " << order << (r.terminated ? "" : " (not terminated)") << '\n';
    writer.write(j, r);
  }
}

}  // namespace

int impact_command(const ImpactOptions& o) {
  const std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  const std::string law_name = o.all_solutions ? "anitescu-potra" : o.orderings ? "sequential" : o.law.empty() ? scene.law : o.law;
  if ((o.all_solutions && !o.law.empty() && o.law != "anitescu-potra") || (o.orderings && !o.law.empty() && o.law != "sequential")) {
    spdlog::error("--all-solutions goes with --law anitescu-potra, --orderings all with --law sequential");
    return kExitUsage;
  }
  if (o.plot && o.format == "hdf5") {
    spdlog::error("--plot draws from samples.csv: leave out --format hdf5, or plot the HDF5 file yourself");
    return kExitUsage;
  }
  const std::unique_ptr<ImpactLaw> law = make_law_or_report(law_name, scene);
  if (!law) return kExitUsage;
  ImpactState impact;
  try {
    if (!find_first_impact(scene.system, scene.initial, impact)) {
      spdlog::error("{}: no impact happens before t_end = {} s", o.scene, scene.system.simulation.t_end);
      return kExitScene;
    }
  } catch (const SimulationError& e) {
    spdlog::error("{}: before the first impact: {}", o.scene, e.what());
    return kExitSimulation;
  }
  const ContactSpace& space = impact.space;
  const Eigen::VectorXd& v_minus = impact.v_minus;
  const double t_impact = impact.t;
  const unsigned long long seed = o.seed >= 0 ? static_cast<unsigned long long>(o.seed) : scene.seed;
  const std::string dir = prepare_output_directory(o.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const bool hdf5 = o.format == "hdf5";
  const std::string path = (std::filesystem::path(dir) / (hdf5 ? "samples.h5" : "samples.csv")).string();
  const double tol = 1e-6 * std::max(1.0, (space.J_n * v_minus).cwiseAbs().maxCoeff());
  spdlog::info("scene {}: impact of {} contacts at t = {} s, law {}, seed {}", scene.name, space.contacts(), t_impact,
               law_name, seed);

  const auto start = std::chrono::steady_clock::now();
  try {
    MetadataFile metadata(dir, {"impact", o.command_line, law_name, seed}, scene);
    SampleWriter writer(path, scene, space, tol, hdf5);
    if (o.all_solutions) {
      if (std::string why; !write_ap_solutions(writer, space, v_minus, why)) {
        spdlog::error("--all-solutions: {}; sample the law instead (without --all-solutions)", why);
        return kExitUsage;
      }
    } else if (o.orderings) {
      write_orderings(writer, scene, space, v_minus, seed, true);
    } else {
      // Each sample's generator is seeded from (seed, index) alone, so the file is the same for any
      // thread count; a chunk is flushed at a time, so what is written survives a later failure.
      const std::unique_ptr<PreparedImpact> prepared = law->prepare(space, v_minus);
      Progress progress("impact", "samples", o.samples, o.quiet);
      ordered_parallel_map<FormattedSample>(
          0, o.samples, o.threads, 16384,
          [&](long i, FormattedSample& row) {
            Rng rng(sample_seed(seed, static_cast<std::uint64_t>(i)));
            writer.format(i, prepared->sample(static_cast<std::uint64_t>(i), rng), row);
          },
          [&](long, const FormattedSample& row) { writer.append(row); },
          [&](long done) {
            writer.flush();
            progress.update(done);
          });
    }
    writer.flush();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.print_summary) {
      std::cout << "scene        " << scene.name << ", law " << law_name << ", seed " << seed << '\n';
      writer.print(std::cout, seconds, !o.all_solutions && !o.orderings);
    }
    if (writer.rows() > 0 && writer.unclassified() == writer.rows()) {
      spdlog::error("{}: none of the {} samples has an outcome (every one labelled collide or failed); {} keeps them",
                    o.scene, writer.rows(), path);
      return kExitSimulation;
    }
    if (writer.unclassified())
      spdlog::warn("{} of {} samples have no outcome (labelled collide or failed, left out of the class counts)",
                   writer.unclassified(), writer.rows());
    write_text_file(std::filesystem::path(dir) / "summary.json", writer.json_text());
    spdlog::info("wrote {} rows to {} and summary.json", writer.rows(), path);
    if (o.plot) {  // the overlays of post_impact.png, in samples.csv's format
      const std::filesystem::path d(dir);
      std::string why;
      {
        SampleWriter ap((d / "anitescu_potra.csv").string(), scene, space, tol);
        if (write_ap_solutions(ap, space, v_minus, why)) ap.flush();
      }
      if (!why.empty()) {
        spdlog::warn("post_impact.png: no Anitescu-Potra overlay: {}", why);
        std::filesystem::remove(d / "anitescu_potra.csv");
      }
      SampleWriter sequential((d / "sequential.csv").string(), scene, space, tol);
      write_orderings(sequential, scene, space, v_minus, seed, false);
      sequential.flush();
    }
    if (o.plot && !run_plot_tool("impact", dir)) return kExitOutput;
    metadata.finish();
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace impactsim
