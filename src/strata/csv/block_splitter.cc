#include "strata/csv/block_splitter.h"

#include <algorithm>
#include <cstring>

namespace strata::csv {

namespace {
using S = LexState;

int BoundaryIndex(LexState state) {
  switch (state) {
    case S::kQuoted: return 1;
    case S::kUnquoted: return 2;
    default: return 0;
  }
}
}  // namespace

BlockSplitter::BlockSplitter(const Dialect& dialect)
    : dialect_(dialect), multi_byte_delimiter_(dialect.delimiter.size() > 1) {
  classes_[static_cast<uint8_t>('\n')] = kLineFeed;
  classes_[static_cast<uint8_t>('\r')] = kCarriageReturn;
  if (dialect.comment != '\0') classes_[static_cast<uint8_t>(dialect.comment)] = kCommentByte;
  if (dialect.escaping) classes_[static_cast<uint8_t>(dialect.escape)] = kEscape;
  if (dialect.quoting) classes_[static_cast<uint8_t>(dialect.quote)] = kQuote;
  classes_[static_cast<uint8_t>(dialect.delimiter[0])] = kDelimiter;

  // The parser's rules (parser.cc), one row per state.
  auto set = [&](S from, S other, S delimiter, S quote, S escape, S lf, S cr, S comment) {
    auto* row = next_[static_cast<int>(from)];
    row[kOther] = other;
    row[kDelimiter] = delimiter;
    row[kQuote] = quote;
    row[kEscape] = escape;
    row[kLineFeed] = lf;
    row[kCarriageReturn] = cr;
    row[kCommentByte] = comment;
  };
  //                     other         delimiter       quote                                  escape             LF            CR            comment
  set(S::kRowStart,      S::kUnquoted, S::kFieldStart, S::kQuoted,                            S::kEscapeUnquoted, S::kRowStart, S::kAfterCR,  S::kComment);
  set(S::kFieldStart,    S::kUnquoted, S::kFieldStart, S::kQuoted,                            S::kEscapeUnquoted, S::kRowStart, S::kAfterCR,  S::kUnquoted);
  set(S::kUnquoted,      S::kUnquoted, S::kFieldStart, S::kUnquoted,                          S::kEscapeUnquoted, S::kRowStart, S::kAfterCR,  S::kUnquoted);
  set(S::kQuoted,        S::kQuoted,   S::kQuoted,     S::kQuoteInQuoted,                     S::kEscapeQuoted,   S::kQuoted,   S::kQuoted,   S::kQuoted);
  set(S::kQuoteInQuoted, S::kUnquoted, S::kFieldStart, dialect.double_quote ? S::kQuoted : S::kUnquoted,
                                                                                                S::kEscapeUnquoted, S::kRowStart, S::kAfterCR,  S::kUnquoted);
  set(S::kEscapeUnquoted, S::kUnquoted, S::kUnquoted,  S::kUnquoted,                          S::kUnquoted,       S::kUnquoted, S::kUnquoted, S::kUnquoted);
  set(S::kEscapeQuoted,  S::kQuoted,   S::kQuoted,     S::kQuoted,                            S::kQuoted,         S::kQuoted,   S::kQuoted,   S::kQuoted);
  set(S::kComment,       S::kComment,  S::kComment,    S::kComment,                           S::kComment,        S::kRowStart, S::kAfterCR,  S::kComment);
  // After a CR: an LF completes the line break; anything else starts the next row.
  set(S::kAfterCR,       S::kUnquoted, S::kFieldStart, S::kQuoted,                            S::kEscapeUnquoted, S::kRowStart, S::kAfterCR,  S::kComment);
}

LexState BlockSplitter::Run(LexState state, std::string_view data, int64_t begin, int64_t end) const {
  if (multi_byte_delimiter_) {
    for (int64_t i = begin; i < end;) i = StepAt(&state, data, i);
    return state;
  }
  for (int64_t i = begin; i < end; ++i) state = Step(state, data[static_cast<size_t>(i)]);
  return state;
}

int64_t BlockSplitter::CountLineBreaks(std::string_view data, int64_t begin, int64_t end) const {
  const char* p = data.data() + begin;
  const char* e = data.data() + end;
  // std::count is vectorised by the compiler; CRs are rare, so look for them only once.
  int64_t breaks = std::count(p, e, '\n');
  if (std::memchr(p, '\r', static_cast<size_t>(e - p)) != nullptr) {
    for (const char* q = p; q < e; ++q) {
      if (*q == '\r' && (q + 1 >= data.data() + data.size() || q[1] != '\n')) ++breaks;
    }
  }
  return breaks;
}

std::vector<int64_t> BlockSplitter::CandidateBoundaries(std::string_view data, int64_t block_bytes) const {
  std::vector<int64_t> out;
  const int64_t size = static_cast<int64_t>(data.size());
  int64_t at = block_bytes;
  while (at < size) {
    // The first line break at or after `at`: an LF (or a CRLF's LF), else a lone CR.
    const char* base = data.data();
    const void* lf = std::memchr(base + at, '\n', static_cast<size_t>(size - at));
    const int64_t lf_at = lf ? static_cast<const char*>(lf) - base : size;
    // A CR only matters before the LF (CR-only files); don't scan past it.
    const void* cr = std::memchr(base + at, '\r', static_cast<size_t>(lf_at - at));
    const int64_t cr_at = cr ? static_cast<const char*>(cr) - base : size;
    int64_t boundary = -1;
    if (cr_at < lf_at && cr_at + 1 < size && base[cr_at + 1] != '\n') {
      boundary = cr_at + 1;
    } else if (lf_at < size) {
      boundary = lf_at + 1;
    } else if (cr_at < size && cr_at + 1 < size) {
      boundary = cr_at + 1;  // a CR before the end with no LF after it
    }
    if (boundary < 0 || boundary >= size) break;
    out.push_back(boundary);
    at = boundary + block_bytes;
  }
  return out;
}

ChunkScan BlockSplitter::ScanChunk(std::string_view data, int64_t begin, int64_t end) const {
  ChunkScan scan;
  scan.line_breaks = CountLineBreaks(data, begin, end);
  const char* p = data.data() + begin;
  const auto length = static_cast<size_t>(end - begin);
  // Without quotes, escapes or comment bytes, a row start stays a row start at every line
  // break, and a quoted state never ends: no need to run the lexer at all.
  bool plain = !(dialect_.quoting && std::memchr(p, dialect_.quote, length) != nullptr) &&
               !(dialect_.escaping && std::memchr(p, dialect_.escape, length) != nullptr) &&
               !(dialect_.comment != '\0' && std::memchr(p, dialect_.comment, length) != nullptr);
  if (plain) {
    scan.end_state = {S::kRowStart, S::kQuoted, S::kRowStart};
    return scan;
  }
  if (multi_byte_delimiter_) {  // rare: one run per start state, each seeing delimiters whole
    for (size_t r = 0; r < kBoundaryStates.size(); ++r) {
      LexState s = Run(kBoundaryStates[r], data, begin, end);
      scan.end_state[r] = s == S::kAfterCR ? S::kRowStart : s;
    }
    return scan;
  }
  // The runs from each start state in lock step (independent chains: the CPU overlaps them);
  // once they agree the rest is one run.
  const int runs = dialect_.escaping ? 3 : 2;
  std::array<LexState, 3> state = kBoundaryStates;
  int64_t i = begin;
  while (i < end) {
    const int64_t stop = std::min(end, i + 64);
    if (runs == 2) {
      LexState a = state[0], b = state[1];
      for (; i < stop; ++i) {
        const char c = data[static_cast<size_t>(i)];
        a = Step(a, c);
        b = Step(b, c);
      }
      state[0] = a;
      state[1] = b;
    } else {
      for (; i < stop; ++i) {
        const char c = data[static_cast<size_t>(i)];
        for (int r = 0; r < 3; ++r) state[r] = Step(state[r], c);
      }
    }
    if (state[0] == state[1] && (runs == 2 || state[0] == state[2])) {
      const LexState rest = Run(state[0], data, i, end);
      state = {rest, rest, rest};
      break;
    }
  }
  if (runs == 2) state[2] = state[0];
  for (auto& s : state) {
    if (s == S::kAfterCR) s = S::kRowStart;
  }
  scan.end_state = state;
  return scan;
}

std::vector<BlockStart> BlockSplitter::ResolveBlockStarts(std::string_view data, const std::vector<int64_t>& candidates,
                                                          const std::vector<ChunkScan>& scans,
                                                          int64_t first_line) const {
  std::vector<BlockStart> starts;
  starts.push_back({0, first_line});
  const int64_t size = static_cast<int64_t>(data.size());
  LexState state = S::kRowStart;
  int64_t line = first_line;
  for (size_t k = 0; k < candidates.size(); ++k) {
    state = scans[k].end_state[static_cast<size_t>(BoundaryIndex(state))];
    line += scans[k].line_breaks;
    const int64_t at = candidates[k];
    if (state == S::kRowStart) {
      starts.push_back({at, line});
      continue;
    }
    // Inside a field: walk on to the next row start, but no further than the next candidate
    // (past it, that candidate's block starts at the same row).
    const int64_t limit = k + 1 < candidates.size() ? candidates[k + 1] : size;
    LexState walk = state;
    int64_t walk_line = line;
    for (int64_t i = at; i < limit;) {
      const char c = data[static_cast<size_t>(i)];
      const int64_t next = StepAt(&walk, data, i);
      if (next != i + 1) {  // a whole multi-byte delimiter: no line break in it
        i = next;
        continue;
      }
      if (c == '\n' || (c == '\r' && (i + 1 >= size || data[static_cast<size_t>(i + 1)] != '\n'))) ++walk_line;
      const bool row_start = walk == S::kRowStart ||
                             (walk == S::kAfterCR && i + 1 < size && data[static_cast<size_t>(i + 1)] != '\n');
      if (row_start && i + 1 < limit) {
        starts.push_back({i + 1, walk_line});
        break;
      }
      i = next;
    }
  }
  return starts;
}

}  // namespace strata::csv
