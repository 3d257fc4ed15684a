// An expression seen from one device (src/array/auto_device.hpp, seen_from): the tree with each
// automatic array moved there (Array::to: no copy until a kernel reads it); arrays of fixed
// devices stay where they are. What device auto evaluates on the device it chose.
#include <array>
#include <cstddef>
#include <memory>

#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

namespace {

// The leaves one tree moved so far: a view a tree reads twice (two leaves, as in sin(a) * a)
// is moved once and its new leaf shared (the heavy expression of `weft bench placement` reads
// each of its three arrays twice). Up to a few; beyond, each is moved.
class MovedLeaves {
 public:
  const NodePtr* find(const ExprNode& leaf) const noexcept {
    for (std::size_t i = 0; i < size_; ++i) {
      if (same_view(from_[i]->array, leaf.array)) return &to_[i];
    }
    return nullptr;
  }
  void add(const ExprNode& leaf, const NodePtr& moved) {
    if (size_ == room) return;
    from_[size_] = &leaf;
    to_[size_++] = moved;
  }

 private:
  static constexpr std::size_t room = 8;
  std::array<const ExprNode*, room> from_{};
  std::array<NodePtr, room> to_;
  std::size_t size_ = 0;
};

NodePtr moved(const NodePtr& n, const Device& d, MovedLeaves& leaves) {
  if (n->kind == ExprNode::Kind::leaf) {
    if (!moves_to(n->array, d)) return n;
    if (const NodePtr* done = leaves.find(*n)) return *done;
    // (Made with the moved array rather than copied and then given it: a leaf's copy would
    // copy its array's shape and strides only to free them.)
    NodePtr out = std::make_shared<const ExprNode>(ExprNode{ExprNode::Kind::leaf, n->op, n->dtype, n->weak, n->shape, {},
                                                            n->array.to(d), n->value, n->imag, n->ivalue, n->function});
    leaves.add(*n, out);
    return out;
  }
  std::shared_ptr<ExprNode> m;
  for (std::size_t i = 0; i < n->kids.size(); ++i) {
    NodePtr k = moved(n->kids[i], d, leaves);
    if (k == n->kids[i]) continue;
    if (!m) m = std::make_shared<ExprNode>(*n);
    m->kids[i] = std::move(k);
  }
  return m ? NodePtr(std::move(m)) : n;
}

}  // namespace

bool moves_to(const Array& a, const Device& device) {
  return a.is_auto() && a.buffer_handle().impl()->device() != device.impl();
}

Expr seen_from(const Expr& expr, const Device& device) {
  MovedLeaves leaves;
  return Expr(moved(expr.node(), device, leaves));
}

}  // namespace weft::detail
