#include "strata/dataset/discovery.h"

#include <gtest/gtest.h>

#include "strata/dataset/dataset_test_util.h"

namespace strata::dataset {
namespace {

using testing::TempDir;

std::vector<std::string> Paths(const std::vector<DatasetFile>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.path);
  return out;
}

TEST(DiscoveryTest, WalksNestedDirectoriesInOrderSkippingHiddenAndUnderscoreNames) {
  TempDir dir;
  dir.Touch("b.parquet");
  dir.Touch("a.parq");
  dir.Touch("notes.txt");
  dir.Touch("_SUCCESS");
  dir.Touch("_metadata");
  dir.Touch(".a.parquet.crc");
  dir.Touch(".hidden/x.parquet");
  dir.Touch("_temporary/y.parquet");
  dir.Touch("year=2024/month=05/part-1.parquet");
  dir.Touch("year=2024/month=05/part-0.parquet");
  dir.Touch("year=2023/month=12/part-0.parquet");
  auto files = DiscoverFiles({dir.path().string()});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(Paths(*files), (std::vector<std::string>{
                               dir / "a.parq", dir / "b.parquet", dir / "year=2023/month=12/part-0.parquet",
                               dir / "year=2024/month=05/part-0.parquet", dir / "year=2024/month=05/part-1.parquet"}));
  EXPECT_TRUE((*files)[0].segments.empty());
  EXPECT_EQ((*files)[2].segments, (std::vector<std::string>{"year=2023", "month=12"}));
  EXPECT_EQ((*files)[2].root, dir.path().string());

  auto slash = DiscoverFiles({dir.path().string() + "/"});  // a trailing slash changes nothing
  ASSERT_TRUE(slash.ok());
  EXPECT_EQ(Paths(*slash), Paths(*files));
  EXPECT_EQ((*slash)[2].segments, (*files)[2].segments);
}

TEST(DiscoveryTest, KeyValueFoldersOfTheInputItselfArePartitionsToo) {
  TempDir dir;
  dir.Touch("year=2024/month=05/part-0.parquet");
  dir.Touch("year=2024/month=06/part-0.parquet");
  for (const std::string& input : {dir / "year=2024", dir / "year=2024/*/*.parquet", dir / "year=2024/month=05"}) {
    auto files = DiscoverFiles({input});
    ASSERT_TRUE(files.ok()) << input << ": " << files.status().ToString();
    EXPECT_EQ((*files)[0].root, dir.path().string()) << input;
    EXPECT_EQ((*files)[0].segments, (std::vector<std::string>{"year=2024", "month=05"})) << input;
  }
}

TEST(DiscoveryTest, AnExplicitFileIsTakenWhateverItsName) {
  TempDir dir;
  const std::string file = dir.Touch("x=1/data.bin");
  auto files = DiscoverFiles({file});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].path, file);
  EXPECT_TRUE((*files)[0].segments.empty());  // explicit files carry no partition segments
}

TEST(DiscoveryTest, GlobsMatchOneLevelPerSegmentAndDoubleStarAnyDepth) {
  TempDir dir;
  dir.Touch("k=1/a.parquet");
  dir.Touch("k=1/b.parquet");
  dir.Touch("k=1/_SUCCESS");
  dir.Touch("k=2/c.parquet");
  dir.Touch("k=2/deep/d.parquet");
  dir.Touch("k=2/c.txt");
  dir.Touch("top.parquet");

  auto one_level = DiscoverFiles({dir / "k=*/*.parquet"});
  ASSERT_TRUE(one_level.ok()) << one_level.status().ToString();
  EXPECT_EQ(Paths(*one_level),
            (std::vector<std::string>{dir / "k=1/a.parquet", dir / "k=1/b.parquet", dir / "k=2/c.parquet"}));
  EXPECT_EQ((*one_level)[0].root, dir.path().string());
  EXPECT_EQ((*one_level)[0].segments, (std::vector<std::string>{"k=1"}));

  auto any_depth = DiscoverFiles({dir / "**/*.parquet"});
  ASSERT_TRUE(any_depth.ok()) << any_depth.status().ToString();
  EXPECT_EQ(Paths(*any_depth),
            (std::vector<std::string>{dir / "k=1/a.parquet", dir / "k=1/b.parquet", dir / "k=2/c.parquet",
                                      dir / "k=2/deep/d.parquet", dir / "top.parquet"}));
  EXPECT_EQ((*any_depth)[3].segments, (std::vector<std::string>{"k=2", "deep"}));

  auto question = DiscoverFiles({dir / "k=?/[ab].parquet"});
  ASSERT_TRUE(question.ok()) << question.status().ToString();
  EXPECT_EQ(Paths(*question), (std::vector<std::string>{dir / "k=1/a.parquet", dir / "k=1/b.parquet"}));
}

TEST(DiscoveryTest, ListsKeepInputOrderAndDeduplicate) {
  TempDir dir;
  dir.Touch("d/b.parquet");
  dir.Touch("d/a.parquet");
  const std::string z = dir.Touch("z.parquet");
  auto files = DiscoverFiles({z, dir / "d", dir / "d/./a.parquet", z});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(Paths(*files), (std::vector<std::string>{z, dir / "d/a.parquet", dir / "d/b.parquet"}));
}

TEST(DiscoveryTest, InputsMatchingNothingFailNamingThem) {
  TempDir dir;
  dir.Touch("empty/notes.txt");
  auto missing = DiscoverFiles({dir / "nope.parquet"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.parquet"), std::string::npos) << missing.status().ToString();

  auto empty_dir = DiscoverFiles({dir / "empty"});
  ASSERT_FALSE(empty_dir.ok());
  EXPECT_NE(empty_dir.status().message().find("empty"), std::string::npos);

  auto no_match = DiscoverFiles({dir / "*/x*.parquet"});
  ASSERT_FALSE(no_match.ok());
  EXPECT_NE(no_match.status().message().find("x*.parquet"), std::string::npos);

  EXPECT_FALSE(DiscoverFiles({}).ok());
}

}  // namespace
}  // namespace strata::dataset
