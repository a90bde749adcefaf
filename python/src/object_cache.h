// Memo of Python objects made while filling one object array (strings, bytes, dates, times):
// a repeated value gets a new reference to the object made the first time, not a new object.
// Low-cardinality columns then cost one object per distinct value instead of one per row. The
// memo is bounded: past kMaxEntries it stops growing, and it turns itself off when it is full
// and lookups often miss, so a column of distinct values pays little more than the hashing of
// its first values. One memo per column conversion, used with the GIL held.
#pragma once

#include <Python.h>

#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace strata::python {

template <typename Key>
class ObjectMemo {
 public:
  static constexpr size_t kMaxEntries = 64 * 1024;

  ObjectMemo() { objects_.reserve(1024); }
  ~ObjectMemo() {
    for (auto& [key, obj] : objects_) Py_DECREF(obj);
  }
  ObjectMemo(const ObjectMemo&) = delete;
  ObjectMemo& operator=(const ObjectMemo&) = delete;

  // A new reference to the object for `key`, made by make() (a new reference, or nullptr with
  // a Python error set, returned as is) the first time. Keys must outlive the memo.
  template <typename Make>
  PyObject* Get(const Key& key, Make&& make) {
    if (!enabled_) return make();
    if (auto it = objects_.find(key); it != objects_.end()) {
      if (full_) CountWhenFull(true);
      Py_INCREF(it->second);
      return it->second;
    }
    PyObject* obj = make();
    if (obj == nullptr) return nullptr;
    if (!full_) {
      Py_INCREF(obj);
      objects_.emplace(key, obj);
      full_ = objects_.size() >= kMaxEntries;
    } else {
      CountWhenFull(false);
    }
    return obj;
  }

 private:
  // Once full, the memo stays on only while most lookups hit: a column of many distinct
  // values (l_comment) then costs the hashing of its first values, not of every one.
  void CountWhenFull(bool hit) {
    hits_ += hit;
    if (++lookups_ % 4096 == 0 && hits_ * 4 < lookups_ * 3) enabled_ = false;
  }

  std::unordered_map<Key, PyObject*> objects_;
  int64_t hits_ = 0;     // since full
  int64_t lookups_ = 0;  // since full
  bool full_ = false;
  bool enabled_ = true;
};

// Strings longer than this are rarely repeated and costly to hash: they bypass the memo.
inline constexpr size_t kMaxMemoBytes = 64;

}  // namespace strata::python
