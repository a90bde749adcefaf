#include "strata/dataset/dataset_reader.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "strata/dataset/file_scan.h"
#include "strata/exec/byte_budget.h"
#include "strata/exec/thread_pool.h"
#include "strata/expr/bind.h"

namespace strata::dataset {

Status ScanOptions::Validate() const {
  if (batch_rows < 1) return Status::Invalid("dataset scan: batch_rows must be at least 1, got {}", batch_rows);
  if (read_ahead_bytes < 0) {
    return Status::Invalid("dataset scan: read_ahead_bytes must not be negative, got {}", read_ahead_bytes);
  }
  return Status::OK();
}

Result<std::shared_ptr<Dataset>> Dataset::Open(const std::vector<std::string>& inputs, const DatasetOptions& options,
                                               MemoryPool* pool) {
  std::shared_ptr<Dataset> dataset(new Dataset());
  dataset->options_ = options;
  dataset->pool_ = pool;
  StorageOptions storage;
  storage.s3 = options.schema.reader.s3;  // the files' own readers open with these too
  STRATA_ASSIGN_OR_RETURN(dataset->files_, DiscoverFiles(inputs, storage));
  STRATA_ASSIGN_OR_RETURN(dataset->partitioning_, ParsePartitions(dataset->files_, options.partitioning, pool));
  // File columns named like a partition key give way to the partition column.
  UnifyOptions unify = options.schema;
  for (const FieldPtr& key : dataset->partitioning_.fields) unify.ignored_columns.push_back(key->name());
  STRATA_ASSIGN_OR_RETURN(UnifiedSchema unified, ReadAndUnify(dataset->files_, unify, pool));
  dataset->summaries_ = std::move(unified.files);
  std::vector<FieldPtr> fields = unified.schema->fields();
  dataset->num_file_fields_ = static_cast<int>(fields.size());
  for (const FieldPtr& key : dataset->partitioning_.fields) fields.push_back(key);
  dataset->schema_ = std::make_shared<Schema>(std::move(fields));
  return dataset;
}

// One file being read: its FileScan runs on one pool task at a time (never two at once), and
// leaves at most one batch ready for the consumer.
struct ActiveFile {
  size_t index = 0;
  int64_t charge = 0;  // bytes this file holds of the reader's budget (an estimate until opened)
  bool charge_known = false;
  std::unique_ptr<FileScan> scan;  // touched only by the task that holds `running`
  // Guarded by the reader's mutex:
  bool running = false;
  bool done = false;
  Status error;
  std::deque<std::shared_ptr<RecordBatch>> ready;
  int64_t ready_bytes = 0;
  int64_t reader_bytes = 0;  // the scan's memory_size() after its last read
  parquet::PruningStats stats;
};

struct DatasetReader::Impl {
  const Dataset* dataset = nullptr;
  ScanPlan plan;
  exec::Executor executor;  // serial: every read runs on the calling thread
  exec::ThreadPool* pool = nullptr;  // executor.pool()
  // The active files' charges, admitted against ScanOptions::read_ahead_bytes (one file is
  // always admitted). Used under shared->mutex only.
  std::unique_ptr<exec::ByteBudget> budget;
  size_t max_active = 1;

  // Shared with the pool tasks.
  struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    int running = 0;
  };
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();

  std::deque<std::shared_ptr<ActiveFile>> active;  // in file order
  size_t next_file = 0;
  DatasetScanStats stats;  // consumer-side counters (guarded by shared->mutex)
  Status failed;

  ~Impl() {
    std::unique_lock<std::mutex> lock(shared->mutex);
    while (shared->running > 0) {
      lock.unlock();
      const bool ran = pool != nullptr && pool->HelpWhileWaiting();
      lock.lock();
      if (!ran) shared->changed.wait(lock, [this] { return shared->running == 0; });
    }
  }

  static int64_t BatchBytes(const RecordBatch& batch) {
    int64_t bytes = 0;
    std::vector<const ArrayData*> stack;
    for (const Array& column : batch.columns()) stack.push_back(column.data().get());
    while (!stack.empty()) {
      const ArrayData* data = stack.back();
      stack.pop_back();
      for (const auto& buffer : data->buffers) bytes += buffer ? buffer->size() : 0;
      for (const auto& child : data->children) stack.push_back(child.get());
      if (data->dictionary) stack.push_back(data->dictionary.get());
    }
    return bytes;
  }

  // One read of `file`: opens it on its first turn, then produces its next batch (or end).
  static void ReadOnce(const ScanPlan& plan, ActiveFile* file, Shared* shared, exec::ByteBudget* budget) {
    Status status;
    std::shared_ptr<RecordBatch> batch;
    bool opened_now = false;
    if (file->scan == nullptr) {
      auto opened = FileScan::Open(plan, file->index);
      if (opened.ok()) {
        file->scan = std::move(*opened);
        opened_now = true;
      } else {
        status = opened.status();
      }
    }
    if (status.ok()) {
      auto next = file->scan->Next();
      if (next.ok()) {
        batch = std::move(*next);
      } else {
        status = next.status();
      }
    }
    const bool end = !status.ok() || batch == nullptr;
    parquet::PruningStats file_stats;
    int64_t reader_bytes = 0;
    if (file->scan != nullptr) {
      reader_bytes = file->scan->memory_size();
      if (end) file_stats = file->scan->stats();
    }
    const int64_t batch_bytes = batch ? BatchBytes(*batch) : 0;
    const int64_t chunk_bytes = file->scan != nullptr ? file->scan->chunk_bytes() : 0;
    // Release the file's readers before the consumer can take its place in the budget.
    if (end) file->scan.reset();
    std::lock_guard<std::mutex> lock(shared->mutex);
    if (opened_now && !file->charge_known) {
      budget->Adjust(file->charge, chunk_bytes);
      file->charge = chunk_bytes;
      file->charge_known = true;
    }
    if (batch) {
      file->ready.push_back(std::move(batch));
      file->ready_bytes += batch_bytes;
    }
    file->reader_bytes = end ? 0 : reader_bytes;
    if (end) {
      file->done = true;
      file->error = status;
      file->stats = file_stats;
    }
    file->running = false;
  }

  // Runs a read of `file` on the pool (or here, when there is no pool).
  void Start(const std::shared_ptr<ActiveFile>& file) {
    file->running = true;
    if (pool == nullptr) {
      ReadOnce(plan, file.get(), shared.get(), budget.get());
      return;
    }
    ++shared->running;
    pool->Submit([this, file = std::shared_ptr<ActiveFile>(file), shared = shared]() mutable {
      ReadOnce(plan, file.get(), shared.get(), budget.get());
      // Dropped before the reader may be destroyed: the last reference frees the file's
      // buffers, and the memory pool need not outlive the reader.
      file.reset();
      std::lock_guard<std::mutex> lock(shared->mutex);
      --shared->running;
      shared->changed.notify_all();
    });
  }

  // Opens more files while the budget allows (under shared->mutex). Files whose partitions
  // rule the filter out are counted and passed over without being opened.
  void Admit() {
    while (next_file < dataset->files().size() && active.size() < max_active) {
      const size_t index = next_file;
      if (!PartitionMayMatch(plan, index)) {
        ++stats.files_skipped_by_partition;
        ++next_file;
        continue;
      }
      int64_t charge = EstimatedChunkBytes(plan, index);
      const bool known = charge >= 0;
      if (!known) {
        // Footer not read yet (first_file_only): assume the largest file open, until the
        // file's own footer says (ReadOnce).
        charge = 0;
        for (const auto& file : active) charge = std::max(charge, file->charge);
      }
      if (!budget->TryAcquire(charge)) break;
      auto file = std::make_shared<ActiveFile>();
      file->index = index;
      file->charge = charge;
      file->charge_known = known;
      active.push_back(std::move(file));
      ++next_file;
    }
  }

  // Starts a read for every active file that has no batch waiting, executor.threads() at most.
  void StartReads() {
    if (pool == nullptr) return;
    for (const auto& file : active) {
      if (shared->running >= executor.threads()) break;
      if (!file->running && !file->done && file->ready.empty()) Start(file);
    }
  }

  Result<std::shared_ptr<RecordBatch>> Next() {
    if (!failed.ok()) return failed;
    std::unique_lock<std::mutex> lock(shared->mutex);
    while (true) {
      Admit();
      if (active.empty()) return std::shared_ptr<RecordBatch>();
      StartReads();
      const std::shared_ptr<ActiveFile> front = active.front();
      if (!front->ready.empty()) {
        std::shared_ptr<RecordBatch> batch = std::move(front->ready.front());
        front->ready.pop_front();
        front->ready_bytes = front->ready.empty() ? 0 : front->ready_bytes - BatchBytes(*batch);
        StartReads();
        return batch;
      }
      if (front->done) {
        active.pop_front();
        budget->Release(front->charge);
        if (!front->error.ok()) {
          failed = front->error;
          return failed;
        }
        ++stats.files_read;
        stats.pruning.Add(front->stats);
        continue;
      }
      if (pool == nullptr) {
        lock.unlock();
        Start(front);
        lock.lock();
        continue;
      }
      if (!front->running) Start(front);
      // Wait for the front file (helping run the pool's queued tasks meanwhile, on a worker).
      lock.unlock();
      const bool ran = pool->HelpWhileWaiting();
      lock.lock();
      if (!ran) {
        shared->changed.wait(lock, [&] { return !front->running; });
      }
    }
  }
};

DatasetReader::DatasetReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DatasetReader::~DatasetReader() = default;

Result<std::shared_ptr<RecordBatch>> DatasetReader::Next() { return impl_->Next(); }

const std::shared_ptr<Schema>& DatasetReader::schema() const { return impl_->plan.output_schema; }

DatasetScanStats DatasetReader::stats() const {
  std::lock_guard<std::mutex> lock(impl_->shared->mutex);
  return impl_->stats;
}

int64_t DatasetReader::memory_size() const {
  std::lock_guard<std::mutex> lock(impl_->shared->mutex);
  int64_t bytes = 0;
  for (const auto& file : impl_->active) bytes += file->reader_bytes + file->ready_bytes;
  return bytes;
}

Result<std::unique_ptr<DatasetReader>> Dataset::Scan(const ScanOptions& options) const {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto impl = std::make_unique<DatasetReader::Impl>();
  impl->dataset = this;
  ScanPlan& plan = impl->plan;
  plan.dataset = this;
  std::vector<FieldPtr> output;
  if (options.columns.empty()) {
    for (int i = 0; i < schema_->num_fields(); ++i) plan.output_fields.push_back(i);
  } else {
    for (const std::string& name : options.columns) {
      const int index = schema_->GetFieldIndex(name);
      if (index < 0) {
        std::string names;
        for (const FieldPtr& f : schema_->fields()) names += (names.empty() ? "" : ", ") + f->name();
        return Status::Invalid("dataset scan: no column '{}' in the dataset; columns: {}", name, names);
      }
      plan.output_fields.push_back(index);
    }
  }
  for (const int f : plan.output_fields) output.push_back(schema_->field(f));
  for (const std::string* name : {&options.row_number_column, &options.file_path_column}) {
    if (name->empty()) continue;
    if (schema_->GetFieldIndex(*name) >= 0 || (options.row_number_column == options.file_path_column)) {
      return Status::Invalid("dataset scan: the virtual column '{}' would hide a column of that name", *name);
    }
  }
  if (!options.row_number_column.empty()) {
    output.push_back(std::make_shared<Field>(options.row_number_column, int64(), /*nullable=*/false));
  }
  if (!options.file_path_column.empty()) {
    output.push_back(std::make_shared<Field>(options.file_path_column, dictionary(int32(), utf8()), false));
  }
  plan.row_number_column = options.row_number_column;
  plan.file_path_column = options.file_path_column;
  plan.output_schema = std::make_shared<Schema>(std::move(output));
  if (options.filter) {
    STRATA_ASSIGN_OR_RETURN(plan.predicate, expr::Bind(*options.filter, *schema_));
    if (plan.predicate->kind() == expr::Predicate::Kind::kTrue) plan.predicate = nullptr;
  }
  plan.pruning = options.pruning;
  plan.pruning.predicate = nullptr;

  impl->executor = options.executor;
  impl->pool = options.executor.pool();
  impl->budget = std::make_unique<exec::ByteBudget>(options.read_ahead_bytes);
  // Files open at once: enough that every thread has a file to decode while the consumer
  // takes batches from the front one; more would only hold more readers and batches.
  impl->max_active = options.executor.parallel() ? static_cast<size_t>(2 * options.executor.threads()) : 1;
  plan.read.batch_rows = options.batch_rows;
  plan.read.max_batch_bytes = options.max_batch_bytes;
  if (files_.size() == 1) {
    // One file: its own reader parallelises by column and reads row groups ahead.
    plan.read.executor = options.executor;
    plan.read.read_ahead_bytes = options.read_ahead_bytes;
  } else {
    plan.read.executor = exec::Executor();
    plan.read.read_ahead_bytes = 0;
  }
  impl->stats.files_total = static_cast<int64_t>(files_.size());
  return std::unique_ptr<DatasetReader>(new DatasetReader(std::move(impl)));
}

}  // namespace strata::dataset
