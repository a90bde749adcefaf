#include "strata/dataset/schema_unification.h"

#include <algorithm>
#include <map>

#include "strata/array/widen.h"
#include "strata/exec/task_group.h"

namespace strata::dataset {

TypePtr CommonType(const TypePtr& a, const TypePtr& b) {
  if (a->Equals(*b)) return a;
  if (CanWiden(*a, *b)) return b;
  if (CanWiden(*b, *a)) return a;
  return nullptr;
}

Result<std::shared_ptr<Schema>> UnifySchemas(const std::vector<std::shared_ptr<Schema>>& schemas,
                                             const std::vector<std::string>& names,
                                             const std::vector<std::string>& ignored) {
  struct Slot {
    FieldPtr field;
    size_t file;      // where the current type came from (for messages)
    size_t seen = 0;  // files that have the field
  };
  std::vector<Slot> slots;
  std::map<std::string, size_t, std::less<>> by_name;
  size_t files_read = 0;
  for (size_t f = 0; f < schemas.size(); ++f) {
    if (schemas[f] == nullptr) continue;
    ++files_read;
    for (const FieldPtr& field : schemas[f]->fields()) {
      if (std::find(ignored.begin(), ignored.end(), field->name()) != ignored.end()) continue;
      auto [it, inserted] = by_name.emplace(field->name(), slots.size());
      if (inserted) {
        slots.push_back(Slot{field, f, 1});
        continue;
      }
      Slot& slot = slots[it->second];
      ++slot.seen;
      const TypePtr common = CommonType(slot.field->type(), field->type());
      if (common == nullptr) {
        return Status::Invalid(
            "dataset: column '{}' has type {} in '{}' but {} in '{}', and neither widens to the other", field->name(),
            slot.field->type()->ToString(), names[slot.file], field->type()->ToString(), names[f]);
      }
      if (!common->Equals(*slot.field->type())) {
        slot.field = slot.field->WithType(common);
        slot.file = f;
      }
      if (field->nullable() && !slot.field->nullable()) slot.field = slot.field->WithNullable(true);
    }
  }
  std::vector<FieldPtr> fields;
  fields.reserve(slots.size());
  for (Slot& slot : slots) {
    // A file without the column reads it as nulls.
    if (slot.seen < files_read && !slot.field->nullable()) slot.field = slot.field->WithNullable(true);
    fields.push_back(slot.field);
  }
  return std::make_shared<Schema>(std::move(fields));
}

namespace {

Result<FileSummary> ReadSummary(const std::string& path, const parquet::FileReaderOptions& options, MemoryPool* pool) {
  auto opened = parquet::FileReader::OpenFile(path, pool, options);
  if (!opened.ok()) return opened.status().WithContext("dataset: reading the footer of '" + path + "'");
  const parquet::FileReader& reader = **opened;
  FileSummary summary;
  summary.schema = reader.restored_schema();  // the types its batches carry
  summary.num_rows = reader.num_rows();
  summary.num_row_groups = reader.num_row_groups();
  const parquet::SchemaDescriptor& descriptor = reader.descriptor();
  summary.max_chunk_bytes.assign(static_cast<size_t>(descriptor.num_fields()), 0);
  for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
    for (int f = 0; f < descriptor.num_fields(); ++f) {
      int64_t bytes = 0;
      const int first = descriptor.field_first_column(f);
      for (int c = first; c < first + descriptor.field_num_columns(f); ++c) {
        auto location = reader.ChunkLocation(rg, c);
        if (!location.ok()) return location.status().WithContext("dataset: '" + path + "'");
        bytes += location->length;
      }
      int64_t& max = summary.max_chunk_bytes[static_cast<size_t>(f)];
      max = std::max(max, bytes);
    }
  }
  return summary;
}

}  // namespace

Result<UnifiedSchema> ReadAndUnify(const std::vector<DatasetFile>& files, const UnifyOptions& options,
                                   MemoryPool* pool) {
  if (files.empty()) return Status::Invalid("dataset: no files to read a schema from");
  UnifiedSchema out;
  out.files.resize(files.size());
  const size_t to_read = options.first_file_only ? 1 : files.size();
  // One task per footer; each opens, summarises and closes its file, so only `threads`
  // footers are held at once.
  exec::TaskGroup group(options.executor.pool(), options.executor.threads());
  for (size_t i = 0; i < to_read; ++i) {
    group.Submit([&, i]() -> Status {
      STRATA_ASSIGN_OR_RETURN(out.files[i], ReadSummary(files[i].path, options.reader, pool));
      return Status::OK();
    });
  }
  STRATA_RETURN_NOT_OK(group.Wait());
  std::vector<std::shared_ptr<Schema>> schemas;
  std::vector<std::string> names;
  for (size_t i = 0; i < files.size(); ++i) {
    schemas.push_back(out.files[i].schema);
    names.push_back(files[i].path);
  }
  STRATA_ASSIGN_OR_RETURN(out.schema, UnifySchemas(schemas, names, options.ignored_columns));
  if (options.first_file_only) {
    std::vector<FieldPtr> fields;
    for (const FieldPtr& field : out.schema->fields()) fields.push_back(field->WithNullable(true));
    out.schema = std::make_shared<Schema>(std::move(fields));
  }
  return out;
}

}  // namespace strata::dataset
