// BlockSplitter: finds row starts in a window of CSV input without lexing it serially, so
// that blocks can be parsed on many threads and still give exactly a one-thread parse.
//
// A candidate boundary is the byte after a line break. There the lexer can only be at a row
// start, inside a quoted field (the line break was quoted) or, with an escape character, in
// an unquoted field (the line break was escaped). Each chunk between candidates is scanned
// once per possible starting state (in parallel, chunks independently; the runs usually
// converge within a field and then cost one), which maps the state at its start to the state
// at its end. A pass in chunk order then picks the true state at every candidate, and a
// candidate that is not a row start is moved to the next row start after it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "strata/csv/parser.h"

namespace strata::csv {

enum class LexState : uint8_t {
  kRowStart,
  kFieldStart,
  kUnquoted,
  kQuoted,
  kQuoteInQuoted,   // a quote inside a quoted field: the closing one, or half of a doubled one
  kEscapeUnquoted,  // the next byte is literal
  kEscapeQuoted,
  kComment,
  kAfterCR,  // a CR ended the row; an LF right after it belongs to the same line break
};
inline constexpr int kLexStates = 9;

// The states a candidate boundary can be in (see above); index into ChunkScan::end_state.
inline constexpr std::array<LexState, 3> kBoundaryStates = {LexState::kRowStart, LexState::kQuoted,
                                                            LexState::kUnquoted};

struct ChunkScan {
  // The state at the chunk's end for each start state in kBoundaryStates (kAfterCR is
  // reported as kRowStart: boundaries never sit between a CR and an LF).
  std::array<LexState, 3> end_state{};
  // Line breaks in the chunk (LF, CRLF, lone CR), whatever the lexer state.
  int64_t line_breaks = 0;
};

// A block of a window: it starts at a row start at byte `offset`, on input line `line`.
struct BlockStart {
  int64_t offset = 0;
  int64_t line = 0;
};

class BlockSplitter {
 public:
  explicit BlockSplitter(const Dialect& dialect);

  // Candidate boundaries for blocks of about `block_bytes`: offsets just after a line break,
  // ascending, excluding 0 and data.size().
  std::vector<int64_t> CandidateBoundaries(std::string_view data, int64_t block_bytes) const;

  // Scans data[begin, end) (a chunk between candidates). Thread-safe; `data` is the whole
  // window, so that a CR at `end - 1` can be told from the start of a CRLF.
  ChunkScan ScanChunk(std::string_view data, int64_t begin, int64_t end) const;

  // The true block starts, given `data` starts at a row start on line `first_line`, its
  // candidates and their chunks' scans (scans[i] covers candidates[i-1] .. candidates[i],
  // scans[0] starting at 0). The first block starts at 0. Serial, cheap: one step per chunk,
  // plus a short scan past a candidate that falls inside a quoted field.
  std::vector<BlockStart> ResolveBlockStarts(std::string_view data, const std::vector<int64_t>& candidates,
                                             const std::vector<ChunkScan>& scans, int64_t first_line) const;

  // The lexer run over data[begin, end) from `state` (tests; the forward scans above).
  LexState Run(LexState state, std::string_view data, int64_t begin, int64_t end) const;

 private:
  enum ByteClass : uint8_t { kOther, kDelimiter, kQuote, kEscape, kLineFeed, kCarriageReturn, kCommentByte, kClasses };
  LexState Step(LexState state, char c) const {
    return next_[static_cast<int>(state)][classes_[static_cast<uint8_t>(c)]];
  }
  // One step at data[at] that sees a multi-byte delimiter whole: its first byte ends a field
  // only where the rest follows (as the parser reads it), and then all its bytes are taken.
  // Returns the index after the bytes taken. Delimiter bytes are never a line break, so a
  // delimiter never straddles a candidate boundary.
  int64_t StepAt(LexState* state, std::string_view data, int64_t at) const {
    const char c = data[static_cast<size_t>(at)];
    if (!multi_byte_delimiter_ || classes_[static_cast<uint8_t>(c)] != kDelimiter) {
      *state = Step(*state, c);
      return at + 1;
    }
    const auto length = static_cast<int64_t>(dialect_.delimiter.size());
    auto* row = next_[static_cast<int>(*state)];
    if (row[kDelimiter] == LexState::kFieldStart && data.substr(static_cast<size_t>(at), static_cast<size_t>(length)) == dialect_.delimiter) {
      *state = LexState::kFieldStart;
      return at + length;
    }
    *state = row[kOther];  // text here (inside quotes, after an escape, in a comment: the same)
    return at + 1;
  }
  int64_t CountLineBreaks(std::string_view data, int64_t begin, int64_t end) const;

  Dialect dialect_;
  bool multi_byte_delimiter_ = false;
  std::array<uint8_t, 256> classes_{};
  LexState next_[kLexStates][kClasses]{};
};

}  // namespace strata::csv
