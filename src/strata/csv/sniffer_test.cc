#include "strata/csv/sniffer.h"

#include <gtest/gtest.h>

#include "strata/memory/memory_pool.h"

namespace strata::csv {
namespace {

Dialect Detect(std::string_view sample, const ParseOptions& options = {}) {
  auto result = DetectDialect(sample, options, SystemMemoryPool());
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : Dialect{};
}

TEST(Sniffer, DetectsTheDelimiter) {
  EXPECT_EQ(Detect("a,b,c\n1,2,3\n4,5,6\n").delimiter, ",");
  EXPECT_EQ(Detect("a\tb\tc\n1\t2,5\t3\n4\t5\t6\n").delimiter, "\t");
  EXPECT_EQ(Detect("a;b;c\n1;2,5;3\n4;5,1;6\n").delimiter, ";");
  EXPECT_EQ(Detect("a|b\n1|x,y\n2|z\n").delimiter, "|");
  // Commas inside quoted fields do not count.
  EXPECT_EQ(Detect("a;b\n\"x,y,z\";1\n\"p,q\";2\n").delimiter, ";");
  // A single column: nothing splits it; RFC 4180's comma.
  EXPECT_EQ(Detect("value\n1\n2\n").delimiter, ",");
}

// Issue 39: two-byte delimiters, where they read the rows as consistently as their first byte.
TEST(Sniffer, DetectsMultiByteDelimiters) {
  EXPECT_EQ(Detect("a, b, c\n1, 2, 3\n4, 5, 6\n").delimiter, ", ");
  EXPECT_EQ(Detect("a||b||c\n1||2||3\n4||5||6\n").delimiter, "||");
  EXPECT_EQ(Detect("a;;b;;c\n1;;x;y;;3\n4;;5;;6\n").delimiter, ";;");
  // Quoted fields after ", " are quoted (", " reads them whole, "," would not).
  EXPECT_EQ(Detect("a, b\n\"x, y\", 1\n\"p\", \"q,r\"\n").delimiter, ", ");
  // A comma without its space somewhere that splits: "," reads more rows alike.
  EXPECT_EQ(Detect("a, b,c\n1, 2,3\n4, 5,6\n").delimiter, ",");
  // Text with ", " in a comma file: still ",".
  EXPECT_EQ(Detect("id,comment\n1,\"Hello, world\"\n2,fine\n").delimiter, ",");
  // "|" reading "a||b" as three fields consistently is still "||" (no empty column between each two).
  const Dialect doubled = Detect("x||y\n1||2\n");
  EXPECT_EQ(doubled.delimiter, "||");
  EXPECT_EQ(doubled.ToString(), "delimiter '||', quote '\"', escape none");
  // Given, it is kept.
  ParseOptions options;
  options.delimiter = ", ";
  EXPECT_EQ(Detect("a,b\n", options).delimiter, ", ");
}

TEST(Sniffer, DetectsTheQuoteAndEscapes) {
  const Dialect single = Detect("a,b\n'x,y',1\n'p,q',2\n");
  EXPECT_TRUE(single.quoting);
  EXPECT_EQ(single.quote, '\'');
  EXPECT_EQ(Detect("a,b\n\"x,y\",1\n").quote, '"');
  // Issue 39: ' by consistency over the sample, even where a " appears (inch marks, quotes in text).
  const Dialect mixed = Detect("id,size,name\n1,'5\" x 7\"',a\n2,'8\", 9',b\n3,'10\"',c\n4,'x, \"y\"',d\n");
  EXPECT_TRUE(mixed.quoting);
  EXPECT_EQ(mixed.quote, '\'');
  // Every string quoted with ' (none holding a delimiter): the ' reading closes them cleanly.
  EXPECT_EQ(Detect("id,name\n1,'ab'\n2,'cd \"e\"'\n").quote, '\'');
  // Apostrophes inside a "-quoted file stay text.
  EXPECT_EQ(Detect("id,name\n1,\"O'Brien, J\"\n2,\"it's\"\n3,x'y\n").quote, '"');
  // A backslash-escaped quote: both readings agree on the field counts, the escaping one
  // keeps the field whole.
  const Dialect escaped = Detect("a,b\n1,\"x\\\"y\"\n2,z\n");
  EXPECT_TRUE(escaped.escaping);
  EXPECT_EQ(escaped.escape, '\\');
  EXPECT_FALSE(Detect("a,b\n1,\"x\"\"y\"\n").escaping);
}

// Issue 39: a backslash before a single quote in a "-quoted file is text, not an escape.
TEST(Sniffer, ABackslashBeforeAnotherByteIsNoEscape) {
  EXPECT_FALSE(Detect("id,size\n1,\"8\\'9\"\"\"\n2,\"5\\'1\"\n").escaping);
  EXPECT_FALSE(Detect("path,n\n\"C:\\dir\\x\",1\n\"D:\\y\",2\n").escaping);
  // A path ending in a backslash, RFC 4180: the escaping reading would swallow the delimiter.
  EXPECT_FALSE(Detect("path,n\n\"C:\\\",1\n\"D:\\\",2\n").escaping);
}

// Both readings agree on every row and leave no text after a closing quote: the one that
// keeps the bytes (no escape) wins the tie.
TEST(Sniffer, ATieKeepsTheBytes) {
  const Dialect d = Detect("a,b\n1,x\\\"y\n2,z\n");
  EXPECT_FALSE(d.escaping);
  EXPECT_EQ(d.delimiter, ",");
}

TEST(Sniffer, KeepsWhatTheOptionsGive) {
  ParseOptions options;
  options.delimiter = ";";
  options.quote = '\0';
  const Dialect d = Detect("a,b,c\n1,2,3\n", options);
  EXPECT_EQ(d.delimiter, ";");
  EXPECT_FALSE(d.quoting);
  EXPECT_EQ(d.ToString(), "delimiter ';', quote none, escape none");
}

}  // namespace
}  // namespace strata::csv
