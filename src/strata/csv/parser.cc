#include "strata/csv/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace strata::csv {

namespace {

// A dialect character for messages: 't' quoted, or none.
std::string Printable(char c) {
  switch (c) {
    case '\t': return "'\\t'";
    case '\0': return "none";
    default: return fmt::format("'{}'", c);
  }
}

// A delimiter for messages: its bytes quoted, a tab as \t.
std::string Printable(const std::string& delimiter) {
  if (delimiter.size() == 1) return Printable(delimiter[0]);
  std::string out = "'";
  for (const char c : delimiter) out += c == '\t' ? std::string("\\t") : std::string(1, c);
  return out + "'";
}

// The text of a row for an error message: at most 80 bytes, line breaks shown escaped.
std::string RowExcerpt(const char* begin, const char* end) {
  std::string out;
  for (const char* p = begin; p < end && out.size() < 80; ++p) {
    if (*p == '\n' || *p == '\r') break;
    out += *p;
  }
  return out;
}

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighs = 0x8080808080808080ULL;

uint64_t Broadcast(char c) { return kOnes * static_cast<uint8_t>(c); }

// The first byte of [p, end) that is in `table`. Eight bytes at a time while they last: a
// lane equal to one of `words` becomes zero after the XOR, and the classic has-zero-byte
// test marks it (exact for the lowest marked lane, which is the one we want). Fields in real
// files run 5-30 bytes; this halves the scan's time on the lineitem CSV's comment column.
inline const char* FindSpecial(const char* p, const char* end, const std::array<bool, 256>& table,
                               const std::array<uint64_t, 4>& words) {
  while (end - p >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    uint64_t hits = 0;
    for (uint64_t w : words) {
      const uint64_t x = v ^ w;
      hits |= (x - kOnes) & ~x & kHighs;
    }
    if (hits != 0) return p + (__builtin_ctzll(hits) >> 3);
    p += 8;
  }
  while (p < end && !table[static_cast<uint8_t>(*p)]) ++p;
  return p;
}

}  // namespace

Dialect Dialect::FromOptions(const ParseOptions& options) {
  Dialect d;
  d.delimiter = options.delimiter.value_or(",");
  const char quote = options.quote.value_or('"');
  d.quoting = quote != '\0';
  d.quote = d.quoting ? quote : '"';
  d.double_quote = options.double_quote;
  const char escape = options.escape.value_or('\0');
  d.escaping = escape != '\0';
  d.escape = d.escaping ? escape : '\\';
  d.comment = options.comment;
  d.ignore_empty_lines = options.ignore_empty_lines;
  return d;
}

std::string Dialect::ToString() const {
  return fmt::format("delimiter {}, quote {}, escape {}", Printable(delimiter),
                     quoting ? Printable(quote) : "none", escaping ? Printable(escape) : "none");
}

BlockParser::BlockParser(const Dialect& dialect, RaggedRows ragged_rows, int64_t max_row_bytes, std::string name)
    : dialect_(dialect), ragged_rows_(ragged_rows), max_row_bytes_(max_row_bytes), name_(std::move(name)) {
  auto mark = [](std::array<bool, 256>& table, char c) { table[static_cast<uint8_t>(c)] = true; };
  multi_byte_delimiter_ = dialect.delimiter.size() > 1;
  mark(unquoted_special_, dialect.delimiter[0]);
  mark(unquoted_special_, '\n');
  mark(unquoted_special_, '\r');
  mark(quoted_special_, '\n');
  mark(quoted_special_, '\r');
  if (dialect.quoting) mark(quoted_special_, dialect.quote);
  if (dialect.escaping) {
    mark(unquoted_special_, dialect.escape);
    mark(quoted_special_, dialect.escape);
  }
  // Unused lanes repeat a byte already searched for (a duplicate changes nothing).
  unquoted_words_ = {Broadcast(dialect.delimiter[0]), Broadcast('\n'), Broadcast('\r'),
                     Broadcast(dialect.escaping ? dialect.escape : '\n')};
  quoted_words_ = {Broadcast(dialect.quoting ? dialect.quote : '\n'), Broadcast('\n'), Broadcast('\r'),
                   Broadcast(dialect.escaping ? dialect.escape : '\n')};
}

// The parser walks a row field by field. A field is quoted only when its first byte is the
// quote; a quote inside an unquoted field is a literal byte; text after a closing quote up to
// the next delimiter is kept (lenient, as most readers). block_splitter.cc's state machine
// encodes exactly these rules.
Status BlockParser::Parse(std::string_view data, int64_t stop, bool is_final, int64_t first_line, int64_t max_rows,
                          ParsedRows* out, BlockParseResult* result) const {
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  const char* const stop_at = begin + std::min<int64_t>(stop, static_cast<int64_t>(data.size()));
  const Dialect& d = dialect_;
  const char delimiter = d.delimiter[0];
  const auto delimiter_length = static_cast<int64_t>(d.delimiter.size());
  const bool multi_byte_delimiter = multi_byte_delimiter_;
  ResizableBuffer* text = out->data();
  int64_t line = first_line;
  int64_t rows = 0;
  const char* p = begin;
  // A parsed field's bytes go to `text`; grow it only when a field does not fit (rare: the
  // caller reserves the block's size). Unescaped text is never longer than the input, so
  // growth stops at `data`'s size: doubling past it would take up to twice a long row's
  // bytes (a quote never closed reaches max_row_bytes).
  const int64_t text_bound = text->size() + static_cast<int64_t>(data.size());
  auto append = [&](const char* from, int64_t n) -> Status {
    if (text->size() + n > text->capacity()) {
      const int64_t need = text->size() + n;
      STRATA_RETURN_NOT_OK(text->Reserve(std::max(need, std::min(2 * text->capacity(), text_bound))));
    }
    text->UnsafeAppend(from, n);
    return Status::OK();
  };
  auto line_break_length = [&](const char* at) -> int { return (*at == '\r' && at + 1 < end && at[1] == '\n') ? 2 : 1; };
  // A CR as the last byte may be the first half of a CRLF whose LF has not been read yet.
  auto ambiguous_cr = [&](const char* at) { return !is_final && *at == '\r' && at + 1 == end; };
  *result = BlockParseResult{};
  // At a multi-byte delimiter's first byte: 1 when the whole delimiter follows, 0 when it
  // does not (the byte is text), -1 when the input ends within a prefix of it before the end
  // of the input (read more).
  auto delimiter_follows = [&](const char* at) -> int {
    const int64_t available = std::min<int64_t>(end - at, delimiter_length);
    if (std::memcmp(at, d.delimiter.data(), static_cast<size_t>(available)) != 0) return 0;
    if (available == delimiter_length) return 1;
    return is_final ? 0 : -1;
  };
  // The byte after the escape at `p`, taken literally (inside quotes or not); `incomplete`
  // when it has not been read yet.
  auto take_escaped = [&](bool* incomplete) -> Status {
    if (p + 1 == end) {
      if (!is_final) {
        *incomplete = true;
        return Status::OK();
      }
      return Status::Invalid("'{}' line {}: the input ends after an escape character", name_, line);
    }
    if (ambiguous_cr(p + 1)) {
      *incomplete = true;
      return Status::OK();
    }
    if (p[1] == '\n' || (p[1] == '\r' && (p + 2 == end || p[2] != '\n'))) ++line;
    STRATA_RETURN_NOT_OK(append(p + 1, 1));
    p += 2;
    return Status::OK();
  };

  while (p < stop_at && rows < max_rows) {
    const char* const row_start = p;
    const int64_t row_line = line;
    const char c0 = *p;
    if (c0 == '\n' || c0 == '\r') {
      if (ambiguous_cr(p)) break;
      if (d.ignore_empty_lines) {
        p += line_break_length(p);
        ++line;
        continue;
      }
    } else if (d.comment != '\0' && c0 == d.comment) {
      const char* q = p;
      while (q < end && *q != '\n' && *q != '\r') ++q;
      if (q == end && !is_final) break;
      if (q < end && ambiguous_cr(q)) break;
      p = q == end ? q : q + line_break_length(q);
      if (q < end) ++line;
      continue;
    }

    bool incomplete = false;
    bool row_done = false;
    const char* row_end = end;  // where the row's bytes end, before its line break
    int fields = 0;
    while (!row_done) {
      FieldKind kind = FieldKind::kPlain;
      if (p == end) {  // a field begins at the end of the input (after a delimiter, or a blank last line)
        if (!is_final) { incomplete = true; break; }
        STRATA_RETURN_NOT_OK(out->AppendFieldEnd(kind));
        ++fields;
        break;
      }
      if (d.quoting && *p == d.quote) {
        kind = FieldKind::kQuoted;
        ++p;
        bool closed = false;
        while (!closed) {
          const char* run = p;
          p = FindSpecial(p, end, quoted_special_, quoted_words_);
          STRATA_RETURN_NOT_OK(append(run, p - run));
          if (p == end) {
            if (!is_final) { incomplete = true; break; }
            if (ragged_rows_ != RaggedRows::kSalvage) {
              return Status::Invalid("'{}' line {}: a quoted field is never closed (row starts '{}'); --ragged "
                                     "salvage ends it at the end of the file", name_, row_line,
                                     RowExcerpt(row_start, end));
            }
            result->unclosed_quote_line = row_line;  // the field ends with the input
            break;
          }
          const char c = *p;
          if (c == '\n' || c == '\r') {
            if (ambiguous_cr(p)) { incomplete = true; break; }
            const int n = line_break_length(p);
            STRATA_RETURN_NOT_OK(append(p, n));
            p += n;
            ++line;
          } else if (d.escaping && c == d.escape) {
            STRATA_RETURN_NOT_OK(take_escaped(&incomplete));
            if (incomplete) break;
          } else {  // the quote
            if (d.double_quote && p + 1 < end && p[1] == d.quote) {
              STRATA_RETURN_NOT_OK(append(p, 1));
              p += 2;
            } else if (d.double_quote && p + 1 == end && !is_final) {
              incomplete = true;  // a doubled quote may straddle the read
              break;
            } else {
              ++p;
              closed = true;
            }
          }
        }
        if (incomplete) break;
      }
      // Unquoted text: the whole field, or what follows a closing quote.
      const char* const after_quote = p;
      while (true) {
        const char* run = p;
        p = FindSpecial(p, end, unquoted_special_, unquoted_words_);
        STRATA_RETURN_NOT_OK(append(run, p - run));
        if (p < end && d.escaping && *p == d.escape) {
          STRATA_RETURN_NOT_OK(take_escaped(&incomplete));
          if (incomplete) break;
          continue;
        }
        if (multi_byte_delimiter && p < end && *p == delimiter) {
          const int follows = delimiter_follows(p);
          if (follows < 0) { incomplete = true; break; }
          if (follows == 0) {  // the first byte alone is text
            STRATA_RETURN_NOT_OK(append(p, 1));
            ++p;
            continue;
          }
        }
        break;
      }
      if (incomplete) break;
      if (kind == FieldKind::kQuoted && p != after_quote) ++result->text_after_quote;
      if (p == end) {
        if (!is_final) { incomplete = true; break; }
        row_done = true;
      } else if (*p == delimiter) {
        p += delimiter_length;
      } else {  // CR or LF
        if (ambiguous_cr(p)) { incomplete = true; break; }
        row_end = p;
        p += line_break_length(p);
        ++line;
        row_done = true;
      }
      STRATA_RETURN_NOT_OK(out->AppendFieldEnd(kind));
      ++fields;
    }

    if (incomplete) {
      // max_row_bytes counts a row's bytes without its line break: a CR at the end may be one.
      if (end - row_start - (end[-1] == '\r' ? 1 : 0) > max_row_bytes_) {
        return Status::LimitExceeded("'{}' line {}: a row longer than {} bytes (max_row_bytes; a quote never closed?)",
                                     name_, row_line, max_row_bytes_);
      }
      out->DiscardPartialRow();
      line = row_line;
      p = row_start;
      break;
    }
    if (row_end - row_start > max_row_bytes_) {
      return Status::LimitExceeded("'{}' line {}: a row of {} bytes is longer than max_row_bytes ({})", name_, row_line,
                                   row_end - row_start, max_row_bytes_);
    }
    if (out->num_columns() < 0) out->set_num_columns(fields);  // the first row sets the width
    const int expected = out->num_columns();
    if (fields != expected) {
      const bool fill =
          (ragged_rows_ == RaggedRows::kFill || ragged_rows_ == RaggedRows::kSalvage) && fields < expected;
      if (fill) {
        for (int i = fields; i < expected; ++i) STRATA_RETURN_NOT_OK(out->AppendFieldEnd(FieldKind::kMissing));
        ++result->padded_rows;
      } else if (ragged_rows_ == RaggedRows::kSkip || ragged_rows_ == RaggedRows::kSalvage) {
        out->DiscardPartialRow();
        ++result->skipped_rows;
        if (result->skipped_examples.size() < 10) result->skipped_examples.push_back({row_line, fields});
        continue;
      } else {
        return Status::Invalid("'{}' line {}: expected {} fields, found {} (row '{}'){}", name_, row_line, expected,
                               fields, RowExcerpt(row_start, p),
                               fields < expected ? "; --ragged fill or salvage pads short rows with nulls, --ragged skip skips them"
                                                 : "; --ragged skip or salvage skips such rows");
      }
    }
    STRATA_RETURN_NOT_OK(out->EndRow(row_line));
    ++rows;
  }
  result->consumed = p - begin;
  result->lines = line - first_line;
  return Status::OK();
}

}  // namespace strata::csv
