// The credential, region and endpoint chain (explicit options, environment, profile files),
// s3:// URL parsing and the XML S3 answers with, on inputs made here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "strata/io/s3/s3_client.h"
#include "strata/io/s3/s3_options.h"
#include "strata/io/s3/s3_path.h"
#include "strata/io/s3/s3_xml.h"

namespace strata::s3 {
namespace {

class FakeEnv {
 public:
  explicit FakeEnv(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}
  GetEnv get() const {
    return [this](const char* name) -> std::optional<std::string> {
      auto it = vars_.find(name);
      if (it == vars_.end()) return std::nullopt;
      return it->second;
    };
  }

 private:
  std::map<std::string, std::string> vars_;
};

class ProfileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("strata_s3_options_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "credentials") << "# comment\n[default]\naws_access_key_id = DEFAULTKEY\n"
                                           "aws_secret_access_key = default/secret\n\n[analytics]\n"
                                           "aws_access_key_id=ANALYTICSKEY\naws_secret_access_key=analytics+secret\n"
                                           "aws_session_token = token123\n";
    std::ofstream(dir_ / "config") << "[default]\nregion = eu-west-1\n[profile analytics]\nregion = ap-south-1\n"
                                      "endpoint_url = http://127.0.0.1:9000\n[profile keysinconfig]\n"
                                      "aws_access_key_id = CONFIGKEY\naws_secret_access_key = config-secret\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::map<std::string, std::string> Files() const {
    return {{"AWS_SHARED_CREDENTIALS_FILE", (dir_ / "credentials").string()},
            {"AWS_CONFIG_FILE", (dir_ / "config").string()}};
  }
  std::filesystem::path dir_;
};

TEST_F(ProfileFiles, DefaultProfileGivesKeysAndRegionAndAwsEndpoint) {
  FakeEnv env(Files());
  auto config = ResolveS3Config({}, env.get());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->credentials.access_key_id, "DEFAULTKEY");
  EXPECT_EQ(config->credentials.secret_access_key, "default/secret");
  EXPECT_EQ(config->credentials.source, "profile 'default'");
  EXPECT_EQ(config->region, "eu-west-1");
  EXPECT_EQ(config->scheme, "https");
  EXPECT_EQ(config->host, "s3.eu-west-1.amazonaws.com");
  EXPECT_FALSE(config->path_style);
}

TEST_F(ProfileFiles, NamedProfileGivesTokenRegionAndEndpoint) {
  auto vars = Files();
  vars["AWS_PROFILE"] = "analytics";
  FakeEnv env(vars);
  auto config = ResolveS3Config({}, env.get());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->credentials.access_key_id, "ANALYTICSKEY");
  EXPECT_EQ(config->credentials.session_token, "token123");
  EXPECT_EQ(config->region, "ap-south-1");
  EXPECT_EQ(config->scheme, "http");
  EXPECT_EQ(config->host, "127.0.0.1:9000");
  EXPECT_TRUE(config->path_style);
  S3Options options;
  options.profile = "keysinconfig";
  auto from_config = ResolveS3Config(options, env.get());
  ASSERT_TRUE(from_config.ok()) << from_config.status().ToString();
  EXPECT_EQ(from_config->credentials.access_key_id, "CONFIGKEY");
}

TEST_F(ProfileFiles, EnvironmentBeatsProfileAndOptionsBeatEnvironment) {
  auto vars = Files();
  vars["AWS_ACCESS_KEY_ID"] = "ENVKEY";
  vars["AWS_SECRET_ACCESS_KEY"] = "env-secret";
  vars["AWS_SESSION_TOKEN"] = "envtoken";
  vars["AWS_REGION"] = "us-west-2";
  vars["AWS_DEFAULT_REGION"] = "ignored-1";
  vars["AWS_ENDPOINT_URL"] = "http://generic:1";
  vars["AWS_ENDPOINT_URL_S3"] = "https://store.example:8443/base/";
  FakeEnv env(vars);
  auto config = ResolveS3Config({}, env.get());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(config->credentials.session_token, "envtoken");
  EXPECT_EQ(config->credentials.source, "environment");
  EXPECT_EQ(config->region, "us-west-2");
  EXPECT_EQ(config->scheme, "https");
  EXPECT_EQ(config->host, "store.example:8443");
  EXPECT_EQ(config->base_path, "/base");
  EXPECT_TRUE(config->path_style);

  S3Options options;
  options.access_key_id = "OPTKEY";
  options.secret_access_key = "opt-secret";
  options.region = "sa-east-1";
  options.endpoint_url = "http://127.0.0.1:4566";
  options.path_style = false;
  auto explicit_config = ResolveS3Config(options, env.get());
  ASSERT_TRUE(explicit_config.ok());
  EXPECT_EQ(explicit_config->credentials.access_key_id, "OPTKEY");
  EXPECT_EQ(explicit_config->credentials.session_token, "");
  EXPECT_EQ(explicit_config->region, "sa-east-1");
  EXPECT_EQ(explicit_config->host, "127.0.0.1:4566");
  EXPECT_FALSE(explicit_config->path_style);
}

TEST_F(ProfileFiles, MissingCredentialsAndBadSettingsAreClearErrors) {
  FakeEnv empty({{"HOME", dir_.string() + "/nohome"}});
  auto none = ResolveS3Config({}, empty.get());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no AWS credentials"), std::string::npos);
  S3Options anonymous;
  anonymous.anonymous = true;
  auto anonymous_config = ResolveS3Config(anonymous, empty.get());
  ASSERT_TRUE(anonymous_config.ok());
  EXPECT_EQ(anonymous_config->region, "us-east-1");

  auto vars = Files();
  vars["AWS_PROFILE"] = "nosuchprofile";
  FakeEnv missing_profile(vars);
  auto missing = ResolveS3Config({}, missing_profile.get());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'nosuchprofile'"), std::string::npos);

  FakeEnv half({{"AWS_ACCESS_KEY_ID", "ONLYKEY"}, {"HOME", "/nonexistent"}});
  EXPECT_FALSE(ResolveS3Config({}, half.get()).ok());
  S3Options bad_endpoint;
  bad_endpoint.anonymous = true;
  bad_endpoint.endpoint_url = "ftp://x";
  EXPECT_FALSE(ResolveS3Config(bad_endpoint, empty.get()).ok());
  S3Options small_parts;
  small_parts.anonymous = true;
  small_parts.part_size = 1 << 20;
  EXPECT_FALSE(ResolveS3Config(small_parts, empty.get()).ok());
  // The secret never appears in a message.
  S3Options only_secret;
  only_secret.secret_access_key = "do-not-print-me";
  auto refused = ResolveS3Config(only_secret, empty.get());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().find("do-not-print-me"), std::string::npos);
}

TEST(S3PathTest, ParsesBucketAndKeyAsWritten) {
  auto path = ParseS3Url("s3://my-bucket/dir/a b/na\xC3\xAFve.parquet");
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->bucket, "my-bucket");
  EXPECT_EQ(path->key, "dir/a b/na\xC3\xAFve.parquet");
  auto bucket_only = ParseS3Url("s3://bucket");
  ASSERT_TRUE(bucket_only.ok());
  EXPECT_EQ(bucket_only->key, "");
  EXPECT_FALSE(ParseS3Url("s3:///key").ok());
  EXPECT_FALSE(ParseS3Url("s3://bad bucket/key").ok());
  EXPECT_FALSE(ParseS3Url("http://bucket/key").ok());
}

TEST(S3XmlTest, ListingPageAndErrors) {
  const std::string page =
      "<?xml version=\"1.0\"?><ListBucketResult><IsTruncated>true</IsTruncated>"
      "<Contents><Key>a&amp;b/caf&#xE9; &lt;1&gt;.parquet</Key><Size>12</Size><ETag>&quot;abc&quot;</ETag></Contents>"
      "<Contents><Key>c&#233;</Key><Size>0</Size></Contents>"
      "<NextContinuationToken>tok+/=</NextContinuationToken></ListBucketResult>";
  const auto contents = XmlElements(page, "Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(XmlFirst(contents[0], "Key"), "a&b/caf\xC3\xA9 <1>.parquet");
  EXPECT_EQ(XmlFirst(contents[0], "ETag"), "\"abc\"");
  EXPECT_EQ(XmlFirst(contents[1], "Key"), "c\xC3\xA9");
  EXPECT_EQ(XmlFirst(page, "NextContinuationToken"), "tok+/=");
  EXPECT_EQ(XmlFirst(page, "Missing"), "");
  EXPECT_EQ(XmlUnescape("&bogus; & &#xZZ;"), "&bogus; & &#xZZ;");
  EXPECT_EQ(XmlEscape("\"e<t>'&"), "&quot;e&lt;t&gt;&apos;&amp;");
}

TEST(S3ClientTest, UrlsForPathAndVirtualHostedStyle) {
  S3Options local;
  local.anonymous = true;
  local.endpoint_url = "http://127.0.0.1:9000";
  auto client = S3Client::Make(local);
  ASSERT_TRUE(client.ok());
  EXPECT_EQ((*client)->UrlFor({"bucket", "dir/a b+c.parquet"}), "http://127.0.0.1:9000/bucket/dir/a%20b%2Bc.parquet");
  S3Options aws;
  aws.anonymous = true;
  aws.region = "eu-central-1";
  aws.endpoint_url = "";
  auto aws_client = S3Client::Make(aws);
  ASSERT_TRUE(aws_client.ok());
  // AWS_ENDPOINT_URL in the test's environment would change this; CTest's has none.
  if (std::getenv("AWS_ENDPOINT_URL") == nullptr && std::getenv("AWS_ENDPOINT_URL_S3") == nullptr) {
    EXPECT_EQ((*aws_client)->UrlFor({"bucket", "k"}), "https://bucket.s3.eu-central-1.amazonaws.com/k");
  }
}

}  // namespace
}  // namespace strata::s3
