// What online learning found (Chooser::observe), stored beside each device's calibration in
// `<cache>/placement/<hash of identity>.learnt`, under the calibration's trust rules
// (src/placement/costs_store.cpp, docs/SECURITY.md): 0600 files in a 0700 directory owned by
// the user, written to a temporary file and renamed, read without following links and
// size-capped, carrying the device identity and a checksum; a refused file is ignored (a log
// line says why) and learning starts again.
//
//   weft-learnt 4
//   identity host|AMD EPYC 7B13|...|units=2
//   factor 9e3779b97f4a7c15 10 1.8
//   checksum 0123456789abcdef0123456789abcdef
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/hash.hpp"
#include "core/log.hpp"
#include "placement/costs_file.hpp"
#include "weft/config.hpp"
#include "weft/placement.hpp"

namespace weft::detail {

namespace {

// 4: factors kept apart per where the operation's inputs were copied from (Chooser::correction).
// A format-3 file's factors mixed an operation timed on data in place with the same operation
// timed with its inputs copied in first (on an H200 the host's sums of 10^4 elements in its own
// memory, at about half their estimate, made copying them from cuda:0 to the host look cheap),
// a format-2 file's were running means that one disturbed timing could move by any amount (one
// of 238 was seen), and a format-1 file's had the context switch inside them: all are dropped.
constexpr const char* learnt_header = "weft-learnt 4";
constexpr std::uint64_t learnt_max_bytes = 1 << 20;
constexpr std::size_t max_factors = 16384;

std::string learnt_file_name(const std::string& identity) { return Hasher().update(identity).finish().hex() + ".learnt"; }

}  // namespace

std::string encode_learnt(const std::string& identity, std::span<const LearntFactor> factors) {
  std::ostringstream os;
  os.precision(17);
  os << learnt_header << "\nidentity " << identity << "\n";
  for (const LearntFactor& f : factors) {
    os << "factor " << std::hex << f.signature << std::dec << " " << f.size_class << " " << f.factor << "\n";
  }
  return with_checksum(os.str());
}

bool decode_learnt(std::string_view text, const std::string& identity, std::vector<LearntFactor>* out,
                   std::string* problem) {
  const std::optional<std::string_view> checked = checked_body(text, problem);
  if (!checked) return false;
  const std::string_view body = *checked;
  std::istringstream in{std::string(body)};
  std::string line;
  if (!std::getline(in, line) || line != learnt_header) {
    *problem = "it does not start with '" + std::string(learnt_header) + "'";
    return false;
  }
  if (!std::getline(in, line) || line != "identity " + identity) {
    *problem = "it is not what was learnt on '" + identity + "'";
    return false;
  }
  std::vector<LearntFactor> factors;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string word;
    LearntFactor f;
    if (!(fields >> word) || word != "factor" || !(fields >> std::hex >> f.signature >> std::dec >> f.size_class >> f.factor) ||
        !(f.factor > 0) || !std::isfinite(f.factor) || f.size_class > 64 || factors.size() == max_factors) {
      *problem = "a line that is not 'factor <signature> <size class> <positive factor>': '" + line + "'";
      return false;
    }
    factors.push_back(f);
  }
  *out = std::move(factors);
  return true;
}

std::string learnt_path(const std::string& identity) {
  if (config().cache_dir.empty()) return {};
  return config().cache_dir + "/placement/" + learnt_file_name(identity);
}

std::vector<LearntFactor> load_learnt(const std::string& identity) {
  std::string problem;
  UniqueFd dir = placement_dir(false, &problem);
  if (!dir) return {};
  const std::string name = learnt_file_name(identity);
  FileRead r = read_regular_file(dir.get(), name, {.max_bytes = learnt_max_bytes, .private_to_user = true});
  if (r.missing) return {};
  std::vector<LearntFactor> factors;
  if (!r) problem = r.problem;
  else decode_learnt(r.data, identity, &factors, &problem);
  if (!problem.empty()) {
    WEFT_LOG_WARNING("learnt placement factors " << config().cache_dir << "/placement/" << name
                                                 << " are not used (" << problem << "); learning again");
    return {};
  }
  return factors;
}

bool store_learnt(const std::string& identity, std::span<const LearntFactor> factors, std::string* problem) {
  std::string why;
  UniqueFd dir = placement_dir(true, &why);
  if (dir && write_private_file_at(dir.get(), learnt_file_name(identity), encode_learnt(identity, factors), &why)) return true;
  WEFT_LOG_DEBUG("learnt placement factors not stored: " << why);
  if (problem) *problem = why;
  return false;
}

}  // namespace weft::detail
