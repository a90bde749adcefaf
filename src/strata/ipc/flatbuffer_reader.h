// FlatbufferReader: reads verified pieces of one FlatBuffers buffer (tables, scalars, strings,
// vectors), each checked just before it is read, with errors naming the byte offset in the
// whole message. Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "strata/util/result.h"

namespace strata::ipc::format {

namespace fb = flatbuffers;

// Reads verified pieces of one flatbuffer. Errors name the byte offset in the whole message
// (prefix included).
class FlatbufferReader {
 public:
  FlatbufferReader(const uint8_t* data, size_t size, size_t message_offset,
                   std::string_view label = "Arrow schema message")
      : label_(label),
        data_(data),
        size_(size),
        message_offset_(message_offset),
        // Depth is tracked by the caller, since each table is closed right after its own fields
        // are checked; the table count by CheckTable.
        verifier_(data, size, /*max_depth=*/8, /*max_tables=*/fb::uoffset_t{0x7FFFFFFF}),
        max_tables_(size / 4 + 16),
        // Strings shared the same way; a generous allowance over the message size.
        string_budget_(64 * size + 65536) {}

  size_t OffsetOf(const void* p) const {
    return message_offset_ + static_cast<size_t>(static_cast<const uint8_t*>(p) - data_);
  }

  Result<const fb::Table*> Root(std::string_view what = "Message") {
    const fb::uoffset_t offset = verifier_.VerifyOffset(size_t{0});
    if (offset == 0) return Status::Corrupt("{}: bad root offset at byte {}", label_, message_offset_);
    const auto* root = reinterpret_cast<const fb::Table*>(data_ + offset);
    STRATA_RETURN_NOT_OK(CheckTable(root, what));
    return root;
  }

  template <typename T>
  Result<T> Scalar(const fb::Table* table, fb::voffset_t slot, T default_value, std::string_view what) {
    if (!table->VerifyField<T>(verifier_, slot, sizeof(T))) {
      return Status::Corrupt("{}: {} of the table at byte {} is out of bounds or misaligned",
                             label_, what, OffsetOf(table));
    }
    return table->GetField<T>(slot, default_value);
  }

  // The table `slot` refers to, verified, or nullptr when absent.
  Result<const fb::Table*> Table(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* child = table->GetPointer<const fb::Table*>(slot);
    if (child != nullptr) STRATA_RETURN_NOT_OK(CheckTable(child, what));
    return child;
  }

  // The string `slot` refers to (empty when absent). Points into the reader's buffer.
  Result<std::string_view> String(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* string = table->GetPointer<const fb::String*>(slot);
    if (string == nullptr) return std::string_view();
    if (!verifier_.VerifyString(string)) {
      return Status::Corrupt("{}: {} (string at byte {}) is out of bounds or unterminated", label_, what,
                             OffsetOf(string));
    }
    if (string->size() > string_budget_) {
      return Status::LimitExceeded("{}: strings shared so often that the schema would exceed {} "
                                   "bytes ({} at byte {})",
                                   label_, 64 * size_ + 65536, what, OffsetOf(string));
    }
    string_budget_ -= string->size();
    return std::string_view(string->c_str(), string->size());
  }

  // The tables of the vector `slot` refers to, each verified (empty when absent).
  Result<std::vector<const fb::Table*>> Tables(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* vector = table->GetPointer<const fb::Vector<fb::uoffset_t>*>(slot);
    std::vector<const fb::Table*> tables;
    if (vector == nullptr) return tables;
    if (!verifier_.VerifyVector(vector)) {
      return Status::Corrupt("{}: {} (vector at byte {}) is out of bounds", label_, what, OffsetOf(vector));
    }
    tables.reserve(vector->size());
    for (fb::uoffset_t i = 0; i < vector->size(); ++i) {
      const size_t element = static_cast<size_t>(reinterpret_cast<const uint8_t*>(vector->Data()) - data_) + 4 * size_t{i};
      const fb::uoffset_t offset = verifier_.VerifyOffset(element);
      if (offset == 0) {
        return Status::Corrupt("{}: {} #{} has a bad offset at byte {}", label_, what, i,
                               message_offset_ + element);
      }
      const auto* entry = reinterpret_cast<const fb::Table*>(data_ + element + offset);
      STRATA_RETURN_NOT_OK(CheckTable(entry, what));
      tables.push_back(entry);
    }
    return tables;
  }


  // The structs of the vector `slot` refers to, copied out (the vector's data need not be
  // aligned for T). Empty when absent.
  template <typename T>
  Result<std::vector<T>> Structs(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* vector = table->GetPointer<const fb::Vector<uint8_t>*>(slot);
    std::vector<T> out;
    if (vector == nullptr) return out;
    if (!verifier_.VerifyVectorOrString(reinterpret_cast<const uint8_t*>(vector), sizeof(T))) {
      return Status::Corrupt("{}: {} (vector at byte {}) is out of bounds", label_, what, OffsetOf(vector));
    }
    out.resize(vector->size());
    if (!out.empty()) std::memcpy(out.data(), vector->Data(), out.size() * sizeof(T));
    return out;
  }

 private:
  Status CheckOffset(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    if (!table->VerifyOffset(verifier_, slot)) {
      return Status::Corrupt("{}: {} of the table at byte {} points outside the message", label_, what,
                             OffsetOf(table));
    }
    return Status::OK();
  }

  Status CheckTable(const fb::Table* table, std::string_view what) {
    // Distinct tables need 4 bytes each at least (their vtable offset), so a legitimate message
    // never visits more than size/4 of them; more means subtrees shared over and over (a small
    // message that would expand into a huge schema).
    if (++tables_visited_ > max_tables_) {
      return Status::LimitExceeded("{}: more than {} tables visited in {} bytes (shared subtrees), "
                                   "at {} (byte {})",
                                   label_, max_tables_, size_, what, OffsetOf(table));
    }
    if (!table->VerifyTableStart(verifier_)) {
      return Status::Corrupt("{}: {} (table at byte {}) is out of bounds or has a bad vtable", label_, what,
                             OffsetOf(table));
    }
    verifier_.EndTable();
    return Status::OK();
  }

  std::string_view label_;
  const uint8_t* data_;
  size_t size_;
  size_t message_offset_;
  fb::Verifier verifier_;
  size_t max_tables_;
  size_t tables_visited_ = 0;
  size_t string_budget_;
};

}  // namespace strata::ipc::format
