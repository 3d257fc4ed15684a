#include <gtest/gtest.h>

#include "core/hash.hpp"
#include "weft/dtype.hpp"
#include "weft/error.hpp"
#include "weft/shape.hpp"

namespace weft {
namespace {

TEST(DType, SizesNamesAndParsing) {
  EXPECT_EQ(size_of(DType::bool_), 1u);
  EXPECT_EQ(size_of(DType::int16), 2u);
  EXPECT_EQ(size_of(DType::float16), 2u);
  EXPECT_EQ(size_of(DType::uint64), 8u);
  EXPECT_EQ(name(DType::float32), "float32");
  EXPECT_EQ(c_name(DType::uint8), "uchar");
  EXPECT_EQ(c_name(DType::int64), "long");
  for (DType t : all_dtypes) {
    EXPECT_EQ(parse_dtype(name(t)), t) << name(t);
    EXPECT_EQ(parse_dtype(c_name(t)), t) << c_name(t);
  }
  EXPECT_EQ(parse_dtype("unsigned int"), DType::uint32);
  EXPECT_EQ(parse_dtype("f8"), DType::float64);
  EXPECT_FALSE(parse_dtype("float128").has_value());
  EXPECT_EQ(dtype_of<float>, DType::float32);
  EXPECT_EQ(dtype_of<std::uint8_t>, DType::uint8);
  EXPECT_EQ(dtype_of<long long>, DType::int64);
  EXPECT_TRUE(is_floating(DType::float16));
  EXPECT_TRUE(is_unsigned_integer(DType::uint32));
  EXPECT_FALSE(is_integer(DType::bool_));
}

TEST(Shape, SizeStridesAndPrinting) {
  Shape s{3, 4, 5};
  EXPECT_EQ(s.size(), 60);
  EXPECT_EQ(s.ndim(), 3u);
  EXPECT_EQ(contiguous_strides(s), (Strides{20, 5, 1}));
  EXPECT_TRUE(is_contiguous(s, {20, 5, 1}));
  EXPECT_FALSE(is_contiguous(s, {1, 3, 12}));
  EXPECT_EQ(to_string(s), "(3, 4, 5)");
  EXPECT_EQ(to_string(Shape{7}), "(7,)");
  EXPECT_EQ(to_string(Shape{}), "()");
  EXPECT_EQ(Shape{}.size(), 1);
  EXPECT_EQ(Shape({2, 0}).size(), 0);
  EXPECT_THROW(Shape({2, -1}), InvalidArgument);
}

TEST(Shape, BroadcastingFollowsNumPy) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2, 2}), (Shape{2, 2}));
  EXPECT_EQ(broadcast_shapes({5, 1, 7}, {6, 1}), (Shape{5, 6, 7}));
  try {
    broadcast_shapes({3, 2}, {4});
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("(3, 2)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(4,)"), std::string::npos) << e.what();
  }
}

TEST(Hash, StableFramedAndSensitive) {
  using detail::Hasher;
  const auto a = Hasher().update("ab").update("c").finish();
  const auto b = Hasher().update("a").update("bc").finish();
  const auto a2 = Hasher().update("ab").update("c").finish();
  EXPECT_EQ(a, a2);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.hex().size(), 32u);
  std::string big(10000, 'x');
  const auto c1 = detail::checksum64(big.data(), big.size());
  big[5000] = 'y';
  EXPECT_NE(c1, detail::checksum64(big.data(), big.size()));
}

TEST(Errors, HierarchyAndPayloads) {
  const BuildError be("failed", "the log", "the source");
  EXPECT_EQ(be.log(), "the log");
  EXPECT_EQ(be.source(), "the source");
  const OutOfMemory oom("too big", 123, "CL_MEM_OBJECT_ALLOCATION_FAILURE", "clCreateBuffer");
  const DeviceError& de = oom;
  EXPECT_EQ(de.name(), "CL_MEM_OBJECT_ALLOCATION_FAILURE");
  EXPECT_EQ(oom.requested(), 123u);
  EXPECT_NO_THROW((void)dynamic_cast<const InvalidArgument&>(static_cast<const Error&>(ConfigError("x"))));
}

}  // namespace
}  // namespace weft
