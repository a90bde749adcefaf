// Fuzz target "ipc_stream": the input as an Arrow IPC stream in memory: IpcStreamReader::Open,
// then Next() until the end or an error. Every batch must be consistent with the schema and
// fully valid; every error must carry a message and stay within the pool limit; every byte goes
// back to the pool.
#include "strata/fuzz/fuzz_target.h"
#include "strata/io/input_stream.h"
#include "strata/ipc/ipc_fuzz_util.h"
#include "strata/ipc/ipc_reader.h"

namespace strata::ipc {
namespace {

void FuzzStream(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  {
    IpcReadOptions options;
    // Both message size paths: the default, and a small limit that hostile lengths trip early.
    if (size & 1) options.max_message_bytes = int64_t{1} << 20;
    auto reader = IpcStreamReader::Open(MakeMemoryInputStream({data, size}, "fuzz.arrows"), options, pool.get());
    if (!reader.ok()) {
      fuzz::CheckError(reader.status(), "IpcStreamReader::Open");
      return;
    }
    const SchemaPtr schema = (*reader)->schema();
    STRATA_FUZZ_CHECK(schema != nullptr);
    int64_t rows = 0;
    for (int batches = 0; batches < fuzz_util::kMaxBatches && rows < fuzz_util::kMaxRows; ++batches) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) {
        fuzz::CheckError(batch.status(), "IpcStreamReader::Next");
        break;
      }
      if (*batch == nullptr) {
        // The end stays the end.
        auto again = (*reader)->Next();
        STRATA_FUZZ_CHECK(again.ok() && *again == nullptr, "Next() after the end");
        break;
      }
      fuzz_util::CheckBatch(**batch, *schema);
      rows += (*batch)->num_rows();
    }
  }
}

}  // namespace
}  // namespace strata::ipc

STRATA_FUZZ_TARGET(ipc_stream) {
  strata::ipc::FuzzStream(data, size);
  return 0;
}
