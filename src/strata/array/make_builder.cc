// MakeBuilder: the one place that maps a type to its builder class.
#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/map_builder.h"
#include "strata/array/null_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"
#include "strata/array/union_builder.h"

namespace strata {

Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("MakeBuilder: null type");
  switch (type->id()) {
    case TypeId::kNull: return std::unique_ptr<ArrayBuilder>(std::make_unique<NullBuilder>(pool));
    case TypeId::kBoolean: return std::unique_ptr<ArrayBuilder>(std::make_unique<BooleanBuilder>(type, pool));
    case TypeId::kInt8: return std::unique_ptr<ArrayBuilder>(std::make_unique<Int8Builder>(type, pool));
    case TypeId::kInt16: return std::unique_ptr<ArrayBuilder>(std::make_unique<Int16Builder>(type, pool));
    case TypeId::kInt32:
    case TypeId::kDecimal32:  // the unscaled value
    case TypeId::kIntervalYearMonth:  // months
    case TypeId::kDate32:
    case TypeId::kTime32: return std::unique_ptr<ArrayBuilder>(std::make_unique<Int32Builder>(type, pool));
    case TypeId::kInt64:
    case TypeId::kDecimal64:  // the unscaled value
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return std::unique_ptr<ArrayBuilder>(std::make_unique<Int64Builder>(type, pool));
    case TypeId::kUInt8: return std::unique_ptr<ArrayBuilder>(std::make_unique<UInt8Builder>(type, pool));
    case TypeId::kUInt16:
    case TypeId::kFloat16: return std::unique_ptr<ArrayBuilder>(std::make_unique<UInt16Builder>(type, pool));
    case TypeId::kUInt32: return std::unique_ptr<ArrayBuilder>(std::make_unique<UInt32Builder>(type, pool));
    case TypeId::kUInt64: return std::unique_ptr<ArrayBuilder>(std::make_unique<UInt64Builder>(type, pool));
    case TypeId::kFloat32: return std::unique_ptr<ArrayBuilder>(std::make_unique<FloatBuilder>(type, pool));
    case TypeId::kFloat64: return std::unique_ptr<ArrayBuilder>(std::make_unique<DoubleBuilder>(type, pool));
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
    case TypeId::kFixedSizeBinary:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<FixedSizeBinaryBuilder>(type, pool));
    case TypeId::kIntervalMonthDayNano:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<MonthDayNanoBuilder>(pool));
    case TypeId::kIntervalDayTime: return std::unique_ptr<ArrayBuilder>(std::make_unique<DayTimeBuilder>(pool));
    case TypeId::kBinary:
    case TypeId::kString: return std::unique_ptr<ArrayBuilder>(std::make_unique<BinaryBuilder<int32_t>>(type, pool));
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<BinaryBuilder<int64_t>>(type, pool));
    case TypeId::kBinaryView:
    case TypeId::kStringView: return std::unique_ptr<ArrayBuilder>(std::make_unique<BinaryViewBuilder>(type, pool));
    case TypeId::kList: {
      STRATA_ASSIGN_OR_RETURN(auto b, ListBuilder<int32_t>::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    case TypeId::kLargeList: {
      STRATA_ASSIGN_OR_RETURN(auto b, ListBuilder<int64_t>::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    case TypeId::kFixedSizeList: {
      STRATA_ASSIGN_OR_RETURN(auto b, FixedSizeListBuilder::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    case TypeId::kStruct: {
      STRATA_ASSIGN_OR_RETURN(auto b, StructBuilder::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    case TypeId::kMap: {
      STRATA_ASSIGN_OR_RETURN(auto b, MapBuilder::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    case TypeId::kDictionary:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<DictionaryBuilder>(type, pool));
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      STRATA_ASSIGN_OR_RETURN(auto b, UnionBuilder::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(b));
    }
    // Built from their parts (run ends / views and children) with ArrayData::Make.
    case TypeId::kRunEndEncoded:
    case TypeId::kListView:
    case TypeId::kLargeListView: break;
  }
  return Status::NotImplemented("no builder for {}", type->ToString());
}

}  // namespace strata
