// weft::DeviceFunction: a dialect function of numbers, and the call nodes that apply it in a
// lazy expression (codegen.cpp emits its definitions once per kernel and a call per use).
#include "weft/device_function.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "array/array_queue.hpp"
#include "array/expr_node.hpp"
#include "array/promotion.hpp"
#include "core/hash.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"

namespace weft {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

void check_name(const std::string& name, const std::string& what) {
  if (!is_identifier(name)) {
    throw InvalidArgument("DeviceFunction: " + what + " '" + name + "' is not a C identifier (letters, digits, _)");
  }
  if (name.rfind("weft_", 0) == 0 || name.rfind("WEFT_", 0) == 0) {
    throw InvalidArgument("DeviceFunction: " + what + " '" + name +
                          "' starts with weft_, which generated kernels keep for their own names; rename it");
  }
}

}  // namespace

DeviceFunction::DeviceFunction(std::string name, std::vector<DType> params, DType result,
                               std::vector<Definition> definitions) {
  check_name(name, "the name");
  if (params.empty()) {
    throw InvalidArgument("DeviceFunction '" + name + "': no parameters; an elementwise function takes at least one");
  }
  if (definitions.empty() || definitions.back().name != name) {
    throw InvalidArgument("DeviceFunction '" + name + "': the last definition must be the function '" + name +
                          "' itself (" + (definitions.empty() ? "none given" : "given: '" + definitions.back().name + "'") +
                          ")");
  }
  for (const Definition& d : definitions) check_name(d.name, "the definition");
  for (DType t : params) detail::kernel_type(t);  // Unsupported for float16
  detail::kernel_type(result);
  auto def = std::make_shared<detail::FunctionDef>();
  detail::Hasher h;
  h.update(name);
  for (DType t : params) h.update(static_cast<std::uint64_t>(t));
  h.update(static_cast<std::uint64_t>(result));
  for (const Definition& d : definitions) h.update(d.name).update(d.text);
  def->key = name + "#" + h.finish().hex();
  def->name = std::move(name);
  def->params = std::move(params);
  def->result = result;
  def->definitions = std::move(definitions);
  def_ = std::move(def);
}

const std::string& DeviceFunction::name() const { return def_->name; }
const std::vector<DType>& DeviceFunction::params() const { return def_->params; }
DType DeviceFunction::result() const { return def_->result; }

Expr DeviceFunction::operator()(const std::vector<Expr>& args) const {
  const detail::FunctionDef& f = *def_;
  if (args.size() != f.params.size()) {
    throw InvalidArgument("device function '" + f.name + "' takes " + std::to_string(f.params.size()) +
                          " argument(s), " + std::to_string(args.size()) + " given");
  }
  auto n = std::make_shared<detail::ExprNode>();
  n->kind = detail::ExprNode::Kind::call;
  n->op = f.key;
  n->function = def_;
  n->dtype = f.result;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& kid = args[i].node();
    try {
      n->shape = i == 0 ? kid->shape : broadcast_shapes(n->shape, kid->shape);
    } catch (const InvalidArgument&) {
      std::string shapes;
      for (const Expr& a : args) shapes += (shapes.empty() ? "" : ", ") + to_string(a.shape());
      throw InvalidArgument("the arguments of '" + f.name + "' of shapes " + shapes + " cannot be broadcast together");
    }
    // A plain integer must be one of its parameter's values (NumPy 2 refuses, not wraps).
    if (f.params[i] != DType::bool_) detail::check_fits(*kid, f.params[i], f.name);
    n->kids.push_back(kid);
  }
  return Expr(std::shared_ptr<const detail::ExprNode>(std::move(n)));
}

}  // namespace weft
