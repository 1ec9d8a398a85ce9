#include "app/sample_writer.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "app/number_text.hpp"

namespace impactsim {
namespace {

const char* class_name(int c) { return outcome_class_name(static_cast<OutcomeClass>(c)); }

}  // namespace

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

SampleWriter::SampleWriter(const std::string& path, const Scene& scene, const ContactSpace& c, double tol, bool hdf5,
                           std::size_t expected_rows)
    : c_(c), tol_(tol), table_(sample_columns(scene, c)) {
  if (hdf5) {
    std::vector<Hdf5Table::Column> columns;
    const size_t m = table_.contact_names.size();
    for (size_t k = 0; k < table_.columns.size(); ++k) columns.push_back({table_.columns[k], k + m >= table_.columns.size()});
    h5_ = std::make_unique<Hdf5Table>(path, columns, kLabelWidth, expected_rows);
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

void SampleWriter::format(long index, const ImpactResult& r, FormattedSample& f) const {
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

void SampleWriter::append(const FormattedSample& f) {
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

void SampleWriter::write(long index, const ImpactResult& r) {
  FormattedSample f;
  format(index, r, f);
  append(f);
}

void SampleWriter::print(std::ostream& out, double seconds, bool timed) const {
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

std::string SampleWriter::json_text() const {
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

std::string SampleWriter::joint_label(const std::string& code, int m) const {
  std::string label;
  if (m <= kNamedContacts) {
    for (int i = 0; i < m; ++i) {
      if (i) label += ' ';
      label.append(table_.contact_names[i]).append(":").append(class_name(code[i] - '0'));
    }
    return label;
  }
  std::array<int, kOutcomeClasses> count{};
  for (char digit : code) ++count[digit - '0'];
  for (int k = 0; k < kOutcomeClasses; ++k)
    if (count[k]) {
      if (!label.empty()) label += ' ';
      label.append(class_name(k)).append(":").append(std::to_string(count[k]));
    }
  return label;
}

std::vector<std::pair<long, std::string>> SampleWriter::sorted_combinations() const {
  std::map<std::string, long> by_label;
  const int m = static_cast<int>(table_.contact_names.size());
  for (const auto& [code, n] : summary_.joint) by_label[joint_label(code, m)] += n;
  std::vector<std::pair<long, std::string>> joint;
  for (const auto& [label, n] : by_label) joint.emplace_back(n, label);
  std::sort(joint.rbegin(), joint.rend());
  return joint;
}

}  // namespace impactsim
