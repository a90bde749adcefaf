#include "strata/parquet/read/batch_reader.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include <fmt/format.h>

#include "strata/array/concatenate.h"
#include "strata/exec/byte_budget.h"
#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"
#include "strata/io/location.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/read/memory_limit_fit.h"
#include "strata/parquet/read/page_decryption.h"

namespace strata::parquet {

Status BatchReadOptions::Validate() const {
  if (batch_rows <= 0) return Status::Invalid("batch_rows must be positive, got {}", batch_rows);
  if (max_batch_bytes < 0) return Status::Invalid("max_batch_bytes must be >= 0, got {}", max_batch_bytes);
  if (read_ahead_bytes < 0) return Status::Invalid("read_ahead_bytes must be >= 0, got {}", read_ahead_bytes);
  if (row_groups_at_once_bytes < 0) {
    return Status::Invalid("row_groups_at_once_bytes must be >= 0, got {}", row_groups_at_once_bytes);
  }
  return Status::OK();
}

Result<std::unique_ptr<BatchReader>> BatchReader::Make(FileReader* file, const BatchReadOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto reader = std::unique_ptr<BatchReader>(new BatchReader());
  reader->file_ = file;
  reader->options_ = options;
  reader->executor_ = options.executor;
  if (options.columns.empty()) {
    // Every field, or every field the file was opened for (FileReaderOptions::columns).
    for (int f = 0; f < file->descriptor().num_fields(); ++f) {
      if (file->has_field_metadata(f)) reader->fields_.push_back(f);
    }
  } else {
    for (int f : options.columns) {
      if (f < 0 || f >= file->descriptor().num_fields()) {
        return Status::Invalid("'{}' has {} top-level fields; field {} was asked for", file->source().name(),
                               file->descriptor().num_fields(), f);
      }
      if (!file->has_field_metadata(f)) {
        return Status::Invalid(
            "'{}': field '{}' was not among the columns the file was opened for (FileReaderOptions::columns)",
            file->source().name(), file->schema()->field(f)->name());
      }
      reader->fields_.push_back(f);
    }
  }
  for (const std::string& name : options.dictionary_fields) {
    if (file->descriptor().FieldIndex(name) < 0) {
      return Status::Invalid("'{}' has no top-level field '{}' (BatchReadOptions::dictionary_fields)", file->source().name(),
                             name);
    }
  }
  if (options.row_groups.empty()) {
    for (int r = 0; r < file->num_row_groups(); ++r) reader->row_groups_.push_back(r);
  } else {
    for (int r : options.row_groups) {
      if (r < 0 || r >= file->num_row_groups()) {
        return Status::Invalid("'{}' has {} row groups; row group {} was asked for", file->source().name(),
                               file->num_row_groups(), r);
      }
      reader->row_groups_.push_back(r);
    }
  }
  std::vector<FieldPtr> fields;
  for (int f : reader->fields_) {
    FieldPtr field = file->schema()->field(f);
    const int first = file->descriptor().field_first_column(f);
    const bool flat = file->descriptor().field_num_columns(f) == 1 && file->descriptor().column(first).max_repetition_level == 0 &&
                      file->descriptor().node(file->descriptor().column(first).node_index).parent == 0;
    if (!flat) {
      auto plan = AssemblyPlan::Make(file->descriptor(), f);
      if (!plan.ok()) return plan.status().WithContext(fmt::format("'{}'", file->source().name()));
      // Leaves whose values may pass 2 GiB by the chunk's metadata read with 64-bit offsets: a
      // nested batch can end early before 2 GiB, but not inside a row, and one row may hold
      // that much. (Chunks whose dictionary hides their size end their batches early.)
      for (int leaf = 0; leaf < plan->num_leaves(); ++leaf) {
        const int column = first + leaf;
        bool large = options.large_binary;
        for (size_t r = 0; r < reader->row_groups_.size() && !large; ++r) {
          const ColumnChunk* chunk = file->metadata().chunk(reader->row_groups_[r], column);
          large = chunk != nullptr && chunk->meta_data && ValuesMayPassTwoGiB(*chunk->meta_data);
        }
        if (large) plan->UseLargeOffsets(leaf);
      }
      if (plan->root().type != field->type()) field = field->WithType(plan->root().type);
      reader->plans_.push_back(std::make_unique<AssemblyPlan>(std::move(*plan)));
      reader->output_types_.push_back(field->type());
      reader->restore_types_.push_back(nullptr);
      fields.push_back(std::move(field));
      continue;
    }
    reader->plans_.push_back(nullptr);
    TypePtr type = field->type();
    const TypeId id = type->id();
    const FieldRestore& restore = file->arrow_schema_restore()[static_cast<size_t>(f)];
    if (id == TypeId::kString || id == TypeId::kBinary) {
      if (options.large_binary) type = id == TypeId::kString ? large_utf8() : large_binary();
      const auto& names = options.dictionary_fields;
      if (restore.read_dictionary) {
        type = dictionary(int32(), type, restore.retype->ordered());  // the ARROW:schema's order flag
      } else if (options.read_dictionary &&
                 (names.empty() || std::find(names.begin(), names.end(), field->name()) != names.end())) {
        type = dictionary(int32(), type);
      } else if (options.string_views) {
        type = id == TypeId::kString ? utf8_view() : binary_view();
      }
      field = std::make_shared<Field>(field->name(), type, field->nullable(), field->metadata());
    }
    reader->output_types_.push_back(type);
    // A zone or a duration: the values as read, relabelled per batch (RestoreType).
    reader->restore_types_.push_back(restore.retype && !restore.read_dictionary && !restore.encode ? restore.retype
                                                                                                      : nullptr);
    if (reader->restore_types_.back()) field = field->WithType(restore.retype);
    fields.push_back(std::move(field));
  }
  const std::string& row_number = file->options().row_number_column;
  if (!row_number.empty()) {
    for (const FieldPtr& field : fields) {
      if (field->name() == row_number) {
        return Status::Invalid("'{}': the row number column '{}' would hide the file's column of that name",
                               file->source().name(), row_number);
      }
    }
    fields.push_back(std::make_shared<Field>(row_number, int64(), /*nullable=*/false));
    int64_t first = 0;
    for (const RowGroup& rg : file->metadata().row_groups) {
      reader->first_rows_.push_back(first);
      first += rg.num_rows;
    }
  }
  reader->schema_ = std::make_shared<Schema>(std::move(fields), file->schema()->metadata());
  // Windows shrink with the column count and a pool limit; batches and the bytes read ahead
  // with max_batch_bytes and the limit (memory_limit_fit.h).
  reader->page_options_ = file->options().pages;
  int64_t leaves = 0;
  for (int f : reader->fields_) leaves += file->descriptor().field_num_columns(f);
  FitPageReadToColumns(file->pool()->limit(), leaves, &reader->page_options_);
  FitBatchRead(file->pool()->limit(), file->descriptor(), file->metadata(), reader->row_groups_,
               reader->fields_, &reader->options_);
  if (options.executor.parallel() && reader->options_.read_ahead_bytes > 0) {
    // Read-ahead is optional work: a row group that does not fit is opened when reached.
    reader->ahead_budget_ = std::make_unique<exec::ByteBudget>(
        reader->options_.read_ahead_bytes, exec::ByteBudget::kNoItemLimit, exec::ByteBudget::Oversize::kRefuse);
  }
  const std::string& name = file->source().name();
  const bool remote = IsRemoteLocation(name);
  if (file->options().pre_buffer.value_or(remote) && !reader->row_groups_.empty()) {
    ReadRangeCacheOptions cache = file->options().cache;
    if (remote) cache.io_threads = file->options().remote_io_threads;
    STRATA_ASSIGN_OR_RETURN(reader->cache_, ReadRangeCache::Make(file->shared_source(), file->pool(), cache));
  }
  return reader;
}

BatchReader::~BatchReader() {
  // Before anything the opening tasks use (cache, plans, options) goes away.
  ahead_.reset();
}

RandomAccessSource* BatchReader::source() const {
  return cache_ ? static_cast<RandomAccessSource*>(cache_.get()) : &file_->source();
}

namespace {

// Pre-buffering registers row groups in waves: the row groups the read-ahead window lacks,
// plus, when they are small, the following ones while the wave holds at most this many bytes.
// A wave's ranges are coalesced together, so small row groups share requests (a file of
// 100 KB row groups costs one request per ~40 of them over HTTP instead of one each), for at
// most this many bytes held beyond the window. Larger row groups are registered one by one:
// an entry shared with the next row group would keep a decoded row group's tail alive.
constexpr int64_t kPreBufferWaveBytes = 4 << 20;

struct RowGroupRanges {
  int row_group = 0;
  std::vector<ReadRange> ranges;  // the selected fields' column chunks
  int64_t bytes = 0;
};

Result<RowGroupRanges> SelectedChunkRanges(const FileReader& file, const std::vector<int>& fields, int row_group) {
  const SchemaDescriptor& descriptor = file.descriptor();
  RowGroupRanges out;
  out.row_group = row_group;
  for (int field : fields) {
    const int begin = descriptor.field_first_column(field);
    for (int column = begin; column < begin + descriptor.field_num_columns(field); ++column) {
      STRATA_ASSIGN_OR_RETURN(auto location, file.ChunkLocation(row_group, column));
      out.ranges.push_back({location.offset, location.length});
      out.bytes += location.length;
    }
  }
  return out;
}

}  // namespace

Status BatchReader::ForEachField(size_t count, const std::function<Status(size_t)>& fn, bool parallel) const {
  if (!executor_.parallel() || count <= 1 || !parallel) {
    for (size_t i = 0; i < count; ++i) STRATA_RETURN_NOT_OK(fn(i));
    return Status::OK();
  }
  // Tasks keep their own Status instead of failing the group: the group's "first error wins"
  // would pick whichever column failed first in time.
  std::vector<Status> statuses(count);
  exec::TaskGroup group(executor_.pool(), executor_.threads());
  for (size_t i = 0; i < count; ++i) {
    group.Submit([&fn, &statuses, i]() {
      statuses[i] = fn(i);
      return Status::OK();
    });
  }
  STRATA_RETURN_NOT_OK(group.Wait());
  for (Status& status : statuses) STRATA_RETURN_NOT_OK(status);
  return Status::OK();
}

Status BatchReader::PreBuffer(size_t first, size_t count) {
  const size_t window_end = std::min(row_groups_.size(), first + count);
  if (pre_buffered_ >= window_end) return Status::OK();
  std::vector<RowGroupRanges> wave;
  int64_t wave_bytes = 0;
  for (size_t k = pre_buffered_; k < row_groups_.size(); ++k) {
    if (k >= window_end && wave_bytes >= kPreBufferWaveBytes) break;
    STRATA_ASSIGN_OR_RETURN(auto group, SelectedChunkRanges(*file_, fields_, row_groups_[k]));
    if (k >= window_end && wave_bytes + group.bytes > kPreBufferWaveBytes) break;
    wave_bytes += group.bytes;
    wave.push_back(std::move(group));
  }
  if (wave.size() > 1 && wave_bytes <= kPreBufferWaveBytes) {
    // The wave's first row group registers every range, coalesced across row groups; each
    // other row group then finds its ranges inside those entries and shares them, so an entry
    // is freed with the last row group that reads from it (the first is evicted first).
    std::vector<ReadRange> all;
    for (const auto& group : wave) all.insert(all.end(), group.ranges.begin(), group.ranges.end());
    STRATA_RETURN_NOT_OK(cache_->Cache(std::move(all), wave.front().row_group));
    for (size_t i = 1; i < wave.size(); ++i) STRATA_RETURN_NOT_OK(cache_->Cache(wave[i].ranges, wave[i].row_group));
  } else {
    for (auto& group : wave) STRATA_RETURN_NOT_OK(cache_->Cache(std::move(group.ranges), group.row_group));
  }
  pre_buffered_ += wave.size();
  return Status::OK();
}

void BatchReader::ReleaseRowGroup(int row_group) {
  // Readers first: their chunk buffers may be slices of cache entries.
  for (const auto& reader : current_.readers) pages_skipped_done_ += reader ? reader->pages_skipped() : 0;
  current_.readers.clear();
  current_.nested_readers.clear();
  if (!cache_ || row_group < 0) return;
  // A row group listed again (BatchReadOptions::row_groups may repeat one) keeps its entries
  // while a later listing of it has been handed to the cache already: that listing's Cache()
  // call found the entries and added nothing, so evicting them now would send its reads to the
  // source, chunk by chunk.
  for (size_t k = next_row_group_; k < pre_buffered_; ++k) {
    if (row_groups_[k] == row_group) return;
  }
  cache_->Evict(row_group);
}

Result<std::unique_ptr<PageReader>> BatchReader::OpenPages(int row_group, int column) const {
  STRATA_ASSIGN_OR_RETURN(auto location, file_->ChunkLocation(row_group, column));
  const std::string where = fmt::format("'{}', column '{}' (row group {})", file_->source().name(),
                                        location.column_path, row_group);
  auto pages = OpenPageReader(source(), std::move(location), file_->pool(), page_options_);
  // Source errors name the file already; the pool's (a refused allocation) do not.
  if (!pages.ok() && pages.status().message().find(file_->source().name()) == std::string::npos) {
    return pages.status().WithContext(where);
  }
  return pages;
}

Status BatchReader::OpenRowGroup(size_t index) {
  const int row_group = row_groups_[index];
  // The previous row group's buffers go back to the pool first (its cache entries too, unless
  // it is the row group read again now).
  if (current_row_group_ == row_group) {
    for (const auto& reader : current_.readers) pages_skipped_done_ += reader ? reader->pages_skipped() : 0;
    current_.readers.clear();
    current_.nested_readers.clear();
  } else {
    ReleaseRowGroup(current_row_group_);
  }
  current_row_group_ = -1;
  const Status pre_buffered =
      cache_ ? PreBuffer(index, 1 + static_cast<size_t>(file_->options().read_ahead_row_groups)) : Status::OK();
  Result<std::unique_ptr<OpenedRowGroup>> opened = Status::Invalid("row group {} not opened", row_group);
  if (ahead_ != nullptr && ahead_->size() > 0) {
    // Opened ahead: the queue's oldest is row_groups_[index]. Taken even after an error, so
    // the queue stays in step with the row groups.
    opened = ahead_->Next();
    ahead_budget_->Release(ahead_bytes_.front());
    ahead_bytes_.pop_front();
  } else if (pre_buffered.ok()) {
    opened = OpenReaders(row_group);
  }
  STRATA_RETURN_NOT_OK(pre_buffered);
  if (!opened.ok()) return opened.status();
  current_ = std::move(**opened);
  current_row_group_ = row_group;
  current_.rows_left = file_->metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  ReadAhead(index);
  return Status::OK();
}

void BatchReader::ReadAhead(size_t index) {
  if (ahead_budget_ == nullptr) return;  // serial, or read_ahead_bytes 0
  ahead_end_ = std::max(ahead_end_, index + 1);
  while (ahead_end_ < row_groups_.size()) {
    // A row group whose chunks cannot be located is opened when reached, which reports why.
    auto group = SelectedChunkRanges(*file_, fields_, row_groups_[ahead_end_]);
    if (!group.ok()) return;
    // With pre-buffering, only row groups the cache has been asked for already (its own
    // read-ahead window): their tasks read from its entries, and the cache sees the same
    // requests, and reports the same errors at the same row group, at every thread count.
    if (cache_ && ahead_end_ >= pre_buffered_) return;
    if (!ahead_budget_->TryAcquire(group->bytes)) return;
    if (ahead_ == nullptr) {
      ahead_ = std::make_unique<exec::OrderedTaskQueue<std::unique_ptr<OpenedRowGroup>>>(
          executor_.pool(), static_cast<int>(std::min<size_t>(row_groups_.size(), 1 << 20)));
    }
    ahead_->Submit([this, row_group = row_groups_[ahead_end_]]() { return OpenReaders(row_group); });
    ahead_bytes_.push_back(group->bytes);
    ++ahead_end_;
  }
}

Result<std::unique_ptr<BatchReader::OpenedRowGroup>> BatchReader::OpenReaders(int row_group,
                                                                               bool parallel_fields) const {
  auto opened = std::make_unique<OpenedRowGroup>();
  opened->row_group = row_group;
  opened->readers.resize(fields_.size());
  opened->nested_readers.resize(fields_.size());
  // Each task fills only its field's slots.
  STRATA_RETURN_NOT_OK(ForEachField(
      fields_.size(), [&](size_t i) { return OpenField(row_group, i, opened.get()); }, parallel_fields));
  return opened;
}

Status BatchReader::OpenField(int row_group, size_t i, OpenedRowGroup* out) const {
  if (plans_[i] != nullptr) {
    STRATA_ASSIGN_OR_RETURN(out->nested_readers[i], OpenNestedField(row_group, i));
    return Status::OK();
  }
  const RowGroup& rg = file_->metadata().row_groups[static_cast<size_t>(row_group)];
  const SchemaDescriptor& descriptor = file_->descriptor();
  const int column = descriptor.field_first_column(fields_[i]);
  STRATA_ASSIGN_OR_RETURN(auto pages, OpenPages(row_group, column));
  // OpenPages found the chunk and its metadata.
  const ColumnMetaData& meta = *file_->metadata().chunk(row_group, column)->meta_data;
  auto reader = ColumnReader::Make(descriptor.column(column), meta, rg.num_rows, output_types_[i], std::move(pages),
                                   file_->pool(), page_options_);
  if (!reader.ok()) return reader.status().WithContext(fmt::format("'{}'", file_->source().name()));
  (*reader)->set_validate_utf8(options_.validate_utf8);
  (*reader)->set_max_batch_rows(options_.batch_rows);
  out->readers[i] = std::move(*reader);
  return Status::OK();
}

Result<std::unique_ptr<NestedColumnReader>> BatchReader::OpenNestedField(int row_group, size_t i) const {
  const RowGroup& rg = file_->metadata().row_groups[static_cast<size_t>(row_group)];
  const SchemaDescriptor& descriptor = file_->descriptor();
  const AssemblyPlan& plan = *plans_[i];
  const int first = descriptor.field_first_column(fields_[i]);
  std::vector<std::unique_ptr<NestedLeafReader>> leaves;
  for (int leaf = 0; leaf < plan.num_leaves(); ++leaf) {
    if (!plan.has_leaf_node(leaf)) {
      leaves.push_back(nullptr);  // not part of the field's type (a map group's extra children)
      continue;
    }
    const int column = first + leaf;
    STRATA_ASSIGN_OR_RETURN(auto pages, OpenPages(row_group, column));
    const ColumnChunk& chunk = *file_->metadata().chunk(row_group, column);  // OpenPages found it
    const ColumnMetaData& meta = *chunk.meta_data;
    const AssemblyNode& node = plan.leaf_node(leaf);
    STRATA_ASSIGN_OR_RETURN(auto reader, NestedLeafReader::Make(descriptor.column(column), meta, rg.num_rows,
                                                                node.slot_def, node.type, std::move(pages),
                                                                file_->pool()));
    if (options_.batch_rows < rg.num_rows && chunk.offset_index_offset) {
      // Batches smaller than the row group are sized from the page index (level histograms,
      // unencoded bytes per page) rather than grown; a page index that does not read only
      // costs that (the averages size the batches instead).
      auto offsets = file_->ReadOffsetIndex(row_group, column);
      auto columns = file_->ReadColumnIndex(row_group, column);
      if (offsets.ok() && *offsets && columns.ok()) {
        STRATA_RETURN_NOT_OK(reader->SetPageIndex(**offsets, *columns ? &**columns : nullptr));
      }
    }
    leaves.push_back(std::move(reader));
  }
  const std::string where = fmt::format("'{}', field '{}' (row group {})", file_->source().name(),
                                        schema_->field(static_cast<int>(i))->name(), row_group);
  return std::make_unique<NestedColumnReader>(plan, std::move(leaves), rg.num_rows, where, file_->pool());
}

Result<std::shared_ptr<RecordBatch>> BatchReader::Next() {
  while (current_.rows_left == 0) {
    if (next_row_group_ >= row_groups_.size()) {
      ReleaseRowGroup(current_row_group_);
      current_row_group_ = -1;
      return std::shared_ptr<RecordBatch>();
    }
    STRATA_RETURN_NOT_OK(OpenRowGroup(next_row_group_++));
  }
  return ReadRowGroupBatch(&current_, /*parallel_fields=*/true);
}

Result<std::shared_ptr<RecordBatch>> BatchReader::ReadRowGroupBatch(OpenedRowGroup* group, bool parallel_fields) const {
  int64_t rows = std::min(options_.batch_rows, group->rows_left);
  if (group->carry_rows > 0) rows = group->carry_rows;  // finish the rows of a batch that was cut short
  std::vector<Array> columns(group->readers.size());
  if (group->carry.size() != group->readers.size()) group->carry.assign(group->readers.size(), std::nullopt);
  // Each task touches only its field's reader, carry and column. Errors name the file, column
  // and row group.
  STRATA_RETURN_NOT_OK(ForEachField(
      group->readers.size(),
      [&](size_t i) -> Status {
        if (group->carry[i]) {
          columns[i] = std::move(*group->carry[i]);
          group->carry[i].reset();
          return Status::OK();
        }
        auto data = group->readers[i] ? group->readers[i]->ReadBatch(rows) : group->nested_readers[i]->ReadBatch(rows);
        if (!data.ok()) return data.status();
        columns[i] = RestoreType(i, std::move(*data));
        return Status::OK();
      },
      parallel_fields));
  // A string column stops before 2 GiB of 32-bit offsets: the batch ends at the shortest
  // column, and the longer ones keep their extra rows (zero-copy slices) for the next batches.
  // Every column reads `rows` whatever the others did, so the cuts do not depend on threads.
  int64_t cut = rows;
  for (const Array& column : columns) cut = std::min(cut, column.length());
  group->carry_rows = 0;
  for (size_t i = 0; i < columns.size(); ++i) {
    const int64_t extra = columns[i].length() - cut;
    if (extra == 0) continue;
    group->carry[i] = columns[i].Slice(cut, extra);
    columns[i] = columns[i].Slice(0, cut);
    group->carry_rows = group->carry_rows == 0 ? extra : std::min(group->carry_rows, extra);
  }
  if (!first_rows_.empty()) {
    const int64_t done = file_->metadata().row_groups[static_cast<size_t>(group->row_group)].num_rows - group->rows_left;
    STRATA_ASSIGN_OR_RETURN(Array numbers, RowNumbers(group->row_group, done, cut));
    columns.push_back(std::move(numbers));
  }
  group->rows_left -= cut;
  return std::make_shared<RecordBatch>(schema_, cut, std::move(columns));
}

Status BatchReader::ForEachBatch(const BatchConsumer& consume) {
  const bool parallel = executor_.parallel() && !cache_ && next_row_group_ == 0 &&
                        current_row_group_ == -1 && row_groups_.size() > 1;
  if (!parallel) {
    while (true) {
      STRATA_ASSIGN_OR_RETURN(auto batch, Next());
      if (batch == nullptr) return Status::OK();
      STRATA_RETURN_NOT_OK(consume(next_row_group_ - 1, std::move(batch)));
    }
  }
  // One task per row group: each opens its row group's readers, decodes its batches in order
  // and hands each to `consume` on the same thread, so the consumer reads the batch from the
  // cache of the core that wrote it (decoding a batch's columns on different cores and
  // summarising them on a third cost a 2-thread lineitem scan half its speed). A row group
  // starts when the ones running hold, with it, at most row_groups_at_once_bytes of
  // compressed chunks and fewer than executor_.threads() run; one always may (an
  // exec::ByteBudget). A row group that cannot share the budget decodes its fields as tasks
  // instead. Tasks start in order, so when one fails every earlier one has started: the lowest
  // position's error is the one a serial read stops at.
  next_row_group_ = row_groups_.size();  // Next() after this returns the end
  const int threads = executor_.threads();
  exec::ByteBudget running(options_.row_groups_at_once_bytes, threads);
  std::vector<Status> statuses(row_groups_.size());
  exec::TaskGroup group(executor_.pool(), threads);
  for (size_t position = 0; position < row_groups_.size(); ++position) {
    // A row group whose chunks cannot be located counts as empty here; opening it says why.
    auto ranges = SelectedChunkRanges(*file_, fields_, row_groups_[position]);
    const int64_t bytes = ranges.ok() ? ranges->bytes : 0;
    const bool parallel_fields =
        row_groups_.size() < static_cast<size_t>(threads) || 2 * bytes > options_.row_groups_at_once_bytes;
    // A pool task (a dataset's file) helps run the queue while it waits, so the pool cannot
    // stall with every worker waiting; another thread only waits, leaving the row groups to
    // the workers, whose consumers then never run on it. A failed task ends the wait.
    if (!running.Acquire(bytes, executor_.pool(), [&group] { return !group.ok(); })) break;
    group.Submit([this, &consume, &statuses, &running, position, bytes, parallel_fields]() {
      statuses[position] = ConsumeRowGroup(position, parallel_fields, consume);
      running.Release(bytes);
      return statuses[position];
    });
  }
  (void)group.Wait();  // the statuses say which failed first in file order
  for (Status& status : statuses) STRATA_RETURN_NOT_OK(status);
  return Status::OK();
}

Status BatchReader::ConsumeRowGroup(size_t position, bool parallel_fields, const BatchConsumer& consume) const {
  const int row_group = row_groups_[position];
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<OpenedRowGroup> opened, OpenReaders(row_group, parallel_fields));
  opened->rows_left = file_->metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  while (opened->rows_left > 0) {
    STRATA_ASSIGN_OR_RETURN(auto batch, ReadRowGroupBatch(opened.get(), parallel_fields));
    STRATA_RETURN_NOT_OK(consume(position, std::move(batch)));
  }
  return Status::OK();
}

Array BatchReader::RestoreType(size_t position, ArrayDataPtr data) const {
  const TypePtr& type = restore_types_[position];
  if (type == nullptr) return Array(std::move(data));
  auto relabelled = std::make_shared<ArrayData>(*data);  // the same buffers
  relabelled->type = type;
  return Array(std::move(relabelled));
}

Result<Array> BatchReader::RowNumbers(int row_group, int64_t position, int64_t rows) const {
  STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(file_->pool(), rows * static_cast<int64_t>(sizeof(int64_t))));
  int64_t* out = values->mutable_data_as<int64_t>();
  const int64_t first = first_rows_[static_cast<size_t>(row_group)] + position;
  for (int64_t i = 0; i < rows; ++i) out[i] = first + i;
  return Array(ArrayData::Make(int64(), rows, {nullptr, std::move(values)}, 0));
}

Array BatchReader::AsFileType(size_t position, const Array& column) const {
  if (is_row_number(position) || restore_types_[position] == nullptr) return column;
  auto data = std::make_shared<ArrayData>(*column.data());
  data->type = file_->schema()->field(fields_[position])->type();
  return Array(std::move(data));
}

int64_t BatchReader::pages_skipped() const {
  int64_t pages = pages_skipped_done_;
  for (const auto& reader : current_.readers) pages += reader ? reader->pages_skipped() : 0;
  return pages;
}

int64_t BatchReader::memory_size() const {
  int64_t total = 0;
  for (const auto& reader : current_.readers) total += reader ? reader->memory_size() : 0;
  for (const auto& reader : current_.nested_readers) total += reader ? reader->memory_size() : 0;
  if (cache_) total += cache_->memory_size();
  return total;
}

// ---- Field-wise reading: row groups opened one at a time, fields skipped or decoded on their
// own, and the rows a field decoded past a batch's end carried ahead of its next ones.

Result<bool> BatchReader::OpenNextRowGroup() {
  if (next_row_group_ >= row_groups_.size()) {
    ReleaseRowGroup(current_row_group_);
    current_row_group_ = -1;
    return false;
  }
  STRATA_RETURN_NOT_OK(OpenRowGroup(next_row_group_++));
  current_.carry.assign(current_.readers.size(), std::nullopt);
  current_.carry_rows = 0;
  return true;
}

int64_t BatchReader::row_group_position() const {
  return file_->metadata().row_groups[static_cast<size_t>(current_row_group_)].num_rows - current_.rows_left;
}

void BatchReader::RecountCarriedRows() {
  current_.carry_rows = 0;
  for (const auto& carried : current_.carry) {
    if (carried) {
      current_.carry_rows =
          current_.carry_rows == 0 ? carried->length() : std::min(current_.carry_rows, carried->length());
    }
  }
}

Status BatchReader::SkipFields(const std::vector<size_t>& positions, int64_t rows) {
  if (rows == 0 || positions.empty()) return Status::OK();
  if (current_.carry.size() != current_.readers.size()) current_.carry.assign(current_.readers.size(), std::nullopt);
  STRATA_RETURN_NOT_OK(ForEachField(positions.size(), [&](size_t k) -> Status {
    const size_t i = positions[k];
    if (is_row_number(i)) return Status::OK();  // computed from the position, nothing to skip
    int64_t left = rows;
    if (current_.carry[i]) {
      const int64_t carried = current_.carry[i]->length();
      if (carried > left) {
        current_.carry[i] = current_.carry[i]->Slice(left);
        return Status::OK();
      }
      left -= carried;
      current_.carry[i].reset();
    }
    return current_.readers[i] ? current_.readers[i]->SkipRows(left) : current_.nested_readers[i]->SkipRows(left);
  }));
  RecountCarriedRows();
  return Status::OK();
}

Status BatchReader::ReadFields(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns) {
  if (current_.carry.size() != current_.readers.size()) current_.carry.assign(current_.readers.size(), std::nullopt);
  return ForEachField(positions.size(), [&](size_t k) -> Status {
    const size_t i = positions[k];
    if (is_row_number(i)) {
      STRATA_ASSIGN_OR_RETURN((*columns)[i], RowNumbers(current_row_group_, row_group_position(), rows));
      return Status::OK();
    }
    if (current_.carry[i]) {
      // Rows decoded before (a batch cut short at 2 GiB of string data): they come first.
      Array carried = std::move(*current_.carry[i]);
      current_.carry[i].reset();
      if (carried.length() > rows) {
        current_.carry[i] = carried.Slice(rows);
        carried = carried.Slice(0, rows);
      }
      (*columns)[i] = std::move(carried);
      return Status::OK();
    }
    auto data = current_.readers[i] ? current_.readers[i]->ReadBatch(rows) : current_.nested_readers[i]->ReadBatch(rows);
    if (!data.ok()) return data.status();
    (*columns)[i] = RestoreType(i, std::move(*data));
    return Status::OK();
  });
}

Status BatchReader::GiveBackRows(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns) {
  for (const size_t i : positions) {
    Array& column = (*columns)[i];
    const int64_t extra = column.length() - rows;
    if (extra <= 0) continue;
    if (is_row_number(i)) {  // recomputed from the position by the next ReadFields
      column = column.Slice(0, rows);
      continue;
    }
    Array rest = column.Slice(rows, extra);
    if (current_.carry[i]) {
      // The column came from the carry (ReadFields reads afresh only without one): what it
      // gives back lies just before the carry's rest in the same array, and joins it as one
      // slice, whatever its type.
      const ArrayData& front = *rest.data();
      const ArrayData& back = *current_.carry[i]->data();
      if (front.buffers == back.buffers && front.children == back.children &&
          front.offset + front.length == back.offset) {
        auto joined = std::make_shared<ArrayData>(front);
        joined->length += back.length;
        joined->null_count = kUnknownNullCount;
        rest = Array(std::move(joined));
      } else {
        STRATA_ASSIGN_OR_RETURN(auto joined, Concatenate(front, back, file_->pool()));
        rest = Array(std::move(joined));
      }
    }
    current_.carry[i] = std::move(rest);
    column = column.Slice(0, rows);
  }
  return Status::OK();
}

void BatchReader::FinishRows(int64_t rows) {
  current_.rows_left -= rows;
  RecountCarriedRows();
}

void BatchReader::DropRowGroupRest() {
  current_.rows_left = 0;
  current_.carry.assign(current_.readers.size(), std::nullopt);
  current_.carry_rows = 0;
}

}  // namespace strata::parquet
