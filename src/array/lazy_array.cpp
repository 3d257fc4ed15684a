// Lazy arrays and the record of what memory each one reads, so that a write to that memory
// evaluates them first (lazy_array.hpp).
//
// The record maps a key (an allocation's residence record, or a buffer) to the lazy arrays
// that read it. It is split into shards, each with its own lock, by the key's address: no
// lock is shared by every thread, and a process that makes no lazy arrays pays one atomic
// load per write to find there is nothing to do.
#include "weft/lazy_array.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "array/expr_node.hpp"
#include "array/lazy_readers.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {

struct Deferred {
  explicit Deferred(Expr e) : expr(std::move(e)), dtype(expr.dtype()), shape(expr.shape()) {}
  explicit Deferred(Array a) : expr(a), dtype(a.dtype()), shape(a.shape()), result(std::move(a)) {
    done.store(true, std::memory_order_relaxed);
  }

  const Array& evaluate() {
    if (done.load(std::memory_order_acquire)) return *result;
    std::lock_guard lock(mutex);
    if (!result) {
      result = eval(expr);
      done.store(true, std::memory_order_release);
    }
    return *result;
  }

  const Expr expr;
  const DType dtype;
  const Shape shape;
  std::mutex mutex;  // guards the evaluation
  std::atomic<bool> done{false};
  std::optional<Array> result;  // set once, under mutex; read after `done`
};

namespace {

class Readers {
 public:
  static Readers& get() {
    static Readers* r = new Readers();  // NOLINT: lives to exit (lazy arrays may outlive statics)
    return *r;
  }

  void record(const void* key, const std::shared_ptr<Deferred>& d) {
    Shard& s = shard(key);
    std::lock_guard lock(s.mutex);
    s.map[key].push_back(d);
    entries_.fetch_add(1, std::memory_order_relaxed);
    if (++s.added > 4096) sweep(s);
  }

  /// Evaluates the unevaluated lazy arrays recorded under key, and forgets them.
  void evaluate(const void* key) {
    if (entries_.load(std::memory_order_relaxed) == 0) return;
    std::vector<std::weak_ptr<Deferred>> list;
    {
      Shard& s = shard(key);
      std::lock_guard lock(s.mutex);
      auto it = s.map.find(key);
      if (it == s.map.end()) return;
      list = std::move(it->second);
      s.map.erase(it);
      entries_.fetch_sub(list.size(), std::memory_order_relaxed);
    }
    // Outside the lock: an evaluation records and evaluates in its turn.
    for (auto& w : list) {
      if (auto d = w.lock(); d && !d->done.load(std::memory_order_acquire)) d->evaluate();
    }
  }

 private:
  struct Shard {
    std::mutex mutex;
    std::unordered_map<const void*, std::vector<std::weak_ptr<Deferred>>> map;
    std::size_t added = 0;
  };
  static constexpr std::size_t shards = 16;

  Shard& shard(const void* key) {
    const auto k = reinterpret_cast<std::uintptr_t>(key);
    return shards_[(k >> 6 ^ k >> 12) % shards];
  }

  // Drops the records of lazy arrays that are gone or evaluated (under s.mutex).
  void sweep(Shard& s) {
    std::size_t dropped = 0;
    for (auto it = s.map.begin(); it != s.map.end();) {
      auto& v = it->second;
      const std::size_t before = v.size();
      std::erase_if(v, [](const std::weak_ptr<Deferred>& w) {
        auto d = w.lock();
        return !d || d->done.load(std::memory_order_acquire);
      });
      dropped += before - v.size();
      it = v.empty() ? s.map.erase(it) : std::next(it);
    }
    entries_.fetch_sub(dropped, std::memory_order_relaxed);
    s.added = 0;
  }

  std::array<Shard, shards> shards_;
  std::atomic<std::size_t> entries_{0};
};

}  // namespace

void evaluate_readers(const Array& a) {
  Readers& r = Readers::get();
  r.evaluate(a.allocation_id());
  r.evaluate(a.buffer_handle().impl().get());
}

void evaluate_readers(const Buffer& b) { Readers::get().evaluate(b.impl().get()); }

}  // namespace detail

LazyArray::LazyArray(Array array) {
  if (!array) throw InvalidArgument("LazyArray: an empty array");
  state_ = std::make_shared<detail::Deferred>(std::move(array));
}

namespace {
// One walk of the tree, once per operation on a lazy array (so a chain of k operations costs
// k walks of at most max_nodes nodes, and nothing is copied): whether it has more than limit
// nodes (the count stops there), and the distinct memory its arrays are in: each allocation
// (a write through any view, on any device) and each buffer (a write through a raw Buffer).
bool within_nodes(const detail::ExprNode& root, std::size_t limit, std::vector<const void*>& keys) {
  std::size_t count = 0;
  thread_local std::vector<const detail::ExprNode*> reused;  // no allocation per walk
  std::vector<const detail::ExprNode*>& stack = reused;       // (one look-up of thread-local storage)
  stack.assign(1, &root);
  const auto add = [&](const void* k) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  };
  while (!stack.empty()) {
    const detail::ExprNode* n = stack.back();
    stack.pop_back();
    if (++count > limit) return false;
    if (n->kind == detail::ExprNode::Kind::leaf) {
      add(n->array.allocation_id());
      add(n->array.buffer_handle().impl().get());
    }
    for (const auto& k : n->kids) stack.push_back(k.get());
  }
  return true;
}
}  // namespace

LazyArray LazyArray::defer(Expr expr) {
  if (!expr.node()) throw InvalidArgument("LazyArray::defer: an empty expression");
  if (const Array* a = expr.as_array()) return LazyArray(*a);
  thread_local std::vector<const void*> keys;  // reused: no allocation per operation
  keys.clear();
  if (!within_nodes(*expr.node(), max_nodes, keys) || keys.empty()) return LazyArray(eval(expr));
  LazyArray out;
  out.state_ = std::make_shared<detail::Deferred>(std::move(expr));
  detail::Readers& r = detail::Readers::get();
  for (const void* k : keys) r.record(k, out.state_);
  return out;
}

namespace {
detail::Deferred& checked(const std::shared_ptr<detail::Deferred>& s) {
  if (!s) throw InvalidArgument("an empty LazyArray was used");
  return *s;
}
}  // namespace

bool LazyArray::lazy() const { return !checked(state_).done.load(std::memory_order_acquire); }

const Array& LazyArray::array() const { return checked(state_).evaluate(); }

Expr LazyArray::expr() const {
  detail::Deferred& d = checked(state_);
  if (d.done.load(std::memory_order_acquire)) return Expr(*d.result);
  return d.expr;
}

DType LazyArray::dtype() const { return checked(state_).dtype; }
const Shape& LazyArray::shape() const { return checked(state_).shape; }

Device LazyArray::device() const {
  detail::Deferred& d = checked(state_);
  if (d.done.load(std::memory_order_acquire)) return d.result->device();
  return detail::device_of(*d.expr.node());  // the first array's, without copying every array
}

void prepare_write(const Array& a) {
  if (!a) throw InvalidArgument("prepare_write: an empty array");
  detail::evaluate_readers(a);
  a.mark_written();
}

void prepare_write(const Buffer& buffer) {
  if (!buffer) throw InvalidArgument("prepare_write: an empty buffer");
  detail::evaluate_readers(buffer);
}

}  // namespace weft
