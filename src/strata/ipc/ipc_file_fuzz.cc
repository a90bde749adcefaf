// Fuzz target "ipc_file": the input as an Arrow IPC file in memory (MakeBufferSource):
// IpcFileReader::Open, then ReadRecordBatch for every batch the footer lists, last to first
// and then the first one again (random access, and dictionaries read once). Batches must be
// consistent with the schema and fully valid; errors carry a message and stay within the pool
// limit; every byte goes back to the pool.
#include "strata/fuzz/fuzz_target.h"
#include "strata/io/random_access_source.h"
#include "strata/ipc/ipc_fuzz_util.h"
#include "strata/ipc/ipc_reader.h"
#include "strata/memory/buffer.h"

namespace strata::ipc {
namespace {

void FuzzFile(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  {
    auto source = MakeBufferSource(std::make_shared<Buffer>(data, static_cast<int64_t>(size)), "fuzz.arrow");
    IpcReadOptions options;
    if (size & 1) options.max_message_bytes = int64_t{1} << 20;
    auto reader = IpcFileReader::Open(source, options, pool.get());
    if (!reader.ok()) {
      fuzz::CheckError(reader.status(), "IpcFileReader::Open");
      return;
    }
    const SchemaPtr schema = (*reader)->schema();
    STRATA_FUZZ_CHECK(schema != nullptr);
    const int n = (*reader)->num_record_batches();
    STRATA_FUZZ_CHECK(n >= 0);
    int64_t rows = 0;
    int read = 0;
    for (int i = n - 1; i >= 0 && read < fuzz_util::kMaxBatches && rows < fuzz_util::kMaxRows; --i, ++read) {
      auto batch = (*reader)->ReadRecordBatch(i);
      if (!batch.ok()) {
        fuzz::CheckError(batch.status(), "IpcFileReader::ReadRecordBatch");
        continue;  // another block may still be readable
      }
      STRATA_FUZZ_CHECK(*batch != nullptr, "ReadRecordBatch returned nullptr");
      fuzz_util::CheckBatch(**batch, *schema);
      rows += (*batch)->num_rows();
    }
    if (n > 0) {
      auto first = (*reader)->ReadRecordBatch(0);
      if (first.ok()) {
        fuzz_util::CheckBatch(**first, *schema);
      } else {
        fuzz::CheckError(first.status(), "IpcFileReader::ReadRecordBatch (again)");
      }
    }
    auto past = (*reader)->ReadRecordBatch(n);
    STRATA_FUZZ_CHECK(!past.ok(), "ReadRecordBatch(num_record_batches()) succeeded");
    fuzz::CheckError(past.status(), "IpcFileReader::ReadRecordBatch (past the end)");
  }
}

}  // namespace
}  // namespace strata::ipc

STRATA_FUZZ_TARGET(ipc_file) {
  strata::ipc::FuzzFile(data, size);
  return 0;
}
