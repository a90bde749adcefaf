// Test support for the writer's tests: write batches to memory with given options, read them
// back with strata's reader.
#pragma once

#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "strata/io/output_sink.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"

namespace strata::parquet::testing {

inline Result<std::shared_ptr<Buffer>> WriteToBuffer(const std::shared_ptr<Schema>& schema,
                                                     const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                                     const WriterOptions& options, MemoryPool* pool) {
  auto sink = std::make_unique<BufferSink>(pool);
  BufferSink* raw = sink.get();
  STRATA_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(sink), schema, pool, options));
  for (const auto& batch : batches) STRATA_RETURN_NOT_OK(writer->WriteBatch(*batch));
  STRATA_RETURN_NOT_OK(writer->Close());
  return raw->Finish();
}

inline Result<std::unique_ptr<FileReader>> OpenBuffer(std::shared_ptr<Buffer> file, MemoryPool* pool) {
  return FileReader::Open(MakeBufferSource(std::move(file), "written.parquet"), pool);
}

inline Result<std::shared_ptr<Table>> ReadBuffer(std::shared_ptr<Buffer> file, MemoryPool* pool,
                                                 const BatchReadOptions& options = {}) {
  STRATA_ASSIGN_OR_RETURN(auto reader, OpenBuffer(std::move(file), pool));
  return reader->ReadTable(options);
}

}  // namespace strata::parquet::testing
