// ---- cutting very large trees ------------------------------------------------------------
//
// One kernel per expression, up to a size: every distinct array read is a few kernel
// parameters (the host backend takes 64 at most, OpenCL devices may take as little as 1 KiB),
// and a deeply nested expression is a deeply nested C expression (clang refuses brackets
// nested more than 256 deep). Past these limits the costliest subtrees are evaluated into
// temporaries first, bottom-up, so that each kernel stays within them.
#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/evaluate.hpp"
#include "array/tree_cutting.hpp"
#include "weft/array.hpp"

namespace weft::detail {

namespace {

struct Cost {
  std::vector<const ExprNode*> leaves;  // distinct views (one parameter set each)
  std::size_t numbers = 0;
  std::size_t nodes = 0;
  std::size_t depth = 0;
  std::size_t params(const Shape& out) const {
    std::size_t p = numbers;
    for (const ExprNode* l : leaves) {
      const bool general = !(l->array.is_contiguous() && l->array.shape() == out);
      p += general ? 2 + out.ndim() : 2;  // buffer, offset, strides
    }
    return p;
  }
  void add(const Cost& kid) {
    for (const ExprNode* l : kid.leaves) {
      const bool seen = std::any_of(leaves.begin(), leaves.end(), [&](const ExprNode* m) { return same_view(m->array, l->array); });
      if (!seen) leaves.push_back(l);
    }
    numbers += kid.numbers;
    nodes += kid.nodes;
    depth = std::max(depth, kid.depth);
  }
};

constexpr std::size_t max_params = 40;  // leaves room for a reduction's own parameters
constexpr std::size_t max_nodes = 256;
constexpr std::size_t max_depth = 32;

bool within(const Cost& c, const Shape& out) {
  return c.params(out) + out.ndim() <= max_params && c.nodes <= max_nodes && c.depth <= max_depth;
}

NodePtr evaluated(const NodePtr& n, const Device& dev) {
  Array tmp = Array::empty(n->shape, n->dtype, dev);
  // (A tree of automatic arrays not yet seen from dev, as device auto's eval passes it: its
  // arrays seen from there for this part.)
  const Expr part(n);
  assign_into(tmp, reads_automatic(part) ? seen_from(part, dev) : part);
  auto leaf = std::make_shared<ExprNode>();
  leaf->kind = ExprNode::Kind::leaf;
  leaf->array = tmp;
  leaf->dtype = n->dtype;
  leaf->shape = n->shape;
  leaf->weak = n->weak;  // a subtree of numbers keeps adapting as numbers do
  return leaf;
}

NodePtr bound(const NodePtr& n, const Shape& out, const Device& dev, Cost& cost) {
  const auto leaf_cost = [](const ExprNode* leaf) { return Cost{{leaf}, 0, 1, 1}; };
  if (n->kind == ExprNode::Kind::leaf) {
    cost = leaf_cost(n.get());
    return n;
  }
  if (n->kind == ExprNode::Kind::scalar) {
    cost = {{}, 1, 1, 1};
    return n;
  }
  std::vector<NodePtr> kids;
  std::vector<Cost> costs(n->kids.size());
  for (std::size_t i = 0; i < n->kids.size(); ++i) kids.push_back(bound(n->kids[i], out, dev, costs[i]));
  const auto total = [&] {
    Cost t{{}, 0, 1, 0};
    for (const Cost& c : costs) t.add(c);
    ++t.depth;
    return t;
  };
  for (cost = total(); !within(cost, out); cost = total()) {
    std::optional<std::size_t> costliest;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const auto k = kids[i]->kind;
      if (k == ExprNode::Kind::leaf || k == ExprNode::Kind::scalar || !device_of(*kids[i])) continue;
      const auto rank = [&](std::size_t j) { return std::make_tuple(costs[j].params(out), costs[j].nodes, costs[j].depth); };
      if (!costliest || rank(i) > rank(*costliest)) costliest = i;
    }
    if (!costliest) break;  // nothing left to evaluate: the kernel is as small as it gets
    kids[*costliest] = evaluated(kids[*costliest], dev);
    costs[*costliest] = leaf_cost(kids[*costliest].get());
  }
  if (std::equal(kids.begin(), kids.end(), n->kids.begin())) return n;
  auto copy = std::make_shared<ExprNode>(*n);
  copy->kids = std::move(kids);
  return copy;
}

}  // namespace

// The expression, with its costliest subtrees evaluated into temporaries where it is too large
// for one kernel writing an output of shape out.
Expr bounded(const Expr& expr, const Shape& out, const Device* target) {
  // The common case first: an upper bound of the parameters (every leaf node counted once,
  // as if general: a subtree shared by several operands, as x in a chain of y = f(y, x), is
  // one node) and the size and depth, within the limits.
  std::size_t params = out.ndim(), nodes = 0, depth = 0;
  // Reused: a cached expression allocates nothing here. (Reached through a reference taken once:
  // each use of a thread_local by name costs a call in a shared library.)
  thread_local std::vector<const ExprNode*> reused;
  std::vector<const ExprNode*>& leaves = reused;
  leaves.clear();
  const auto measure = [&](const auto& self, const ExprNode& n, std::size_t level) -> void {
    ++nodes;
    depth = std::max(depth, level);
    if (n.kind == ExprNode::Kind::leaf) {
      if (std::find(leaves.begin(), leaves.end(), &n) == leaves.end()) {
        leaves.push_back(&n);
        params += 2 + out.ndim();
      }
    } else if (n.kind == ExprNode::Kind::scalar) {
      params += 1;
    }
    for (const auto& k : n.kids) self(self, *k, level + 1);
  };
  measure(measure, *expr.node(), 1);
  if (params <= max_params && nodes <= max_nodes && depth <= max_depth) return expr;
  const Device dev = target ? *target : device_of(*expr.node());
  if (!dev) return expr;
  Cost cost;
  NodePtr root = bound(expr.node(), out, dev, cost);
  return root == expr.node() ? expr : Expr(std::move(root));
}

}  // namespace weft::detail
