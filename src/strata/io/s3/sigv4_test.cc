// SigV4 against AWS's published vectors: the aws-signing-test-suite "v4" cases (service
// "service", 2015-08-30) and the S3 examples of the S3 API reference (2013-05-24). The inputs
// are the requests those vectors describe; the expected signatures are theirs.
#include "strata/io/s3/sigv4.h"

#include <gtest/gtest.h>

namespace strata::s3 {
namespace {

SigningContext SuiteContext() {
  return {.access_key_id = "AKIDEXAMPLE",
          .secret_access_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
          .region = "us-east-1",
          .service = "service",
          .timestamp = "20150830T123600Z"};
}

SignableRequest SuiteGet(std::string path, std::vector<std::pair<std::string, std::string>> query = {}) {
  SignableRequest request;
  request.method = "GET";
  request.path = std::move(path);
  request.query = std::move(query);
  request.headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
  return request;
}

struct SuiteCase {
  const char* name;
  SignableRequest request;
  const char* signature;
};

TEST(SigV4Test, AwsSigningTestSuite) {
  std::vector<SuiteCase> cases;
  cases.push_back({"get-utf8", SuiteGet("/\xE1\x88\xB4"),
                   "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"});
  cases.push_back({"get-unreserved", SuiteGet("/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
                   "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"});
  cases.push_back({"get-space-unnormalized", SuiteGet("/example space/"),
                   "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"});
  cases.push_back({"get-vanilla-empty-query-key", SuiteGet("/", {{"Param1", "value1"}}),
                   "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"});
  cases.push_back({"get-vanilla-query-order-key-case", SuiteGet("/", {{"Param2", "value2"}, {"Param1", "value1"}}),
                   "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"});
  const std::string unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  cases.push_back({"get-vanilla-query-unreserved", SuiteGet("/", {{unreserved, unreserved}}),
                   "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"});
  cases.push_back({"get-vanilla-utf8-query", SuiteGet("/", {{"\xE1\x88\xB4", "bar"}}),
                   "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"});
  {
    SignableRequest request = SuiteGet("/");
    request.headers.emplace_back("X-Amz-Security-Token",
                                 "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267");
    cases.push_back({"get-vanilla-with-session-token", request,
                     "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"});
  }
  {
    SignableRequest request = SuiteGet("/");
    request.headers.emplace_back("My-Header1", " value1");
    request.headers.emplace_back("My-Header2", " \"a   b   c\"");
    cases.push_back({"get-header-value-trim", request,
                     "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"});
  }
  {
    SignableRequest request = SuiteGet("/");
    request.headers.emplace_back("My-Header1", "value2");
    request.headers.emplace_back("My-Header1", "value2");
    request.headers.emplace_back("My-Header1", "value1");
    cases.push_back({"get-header-key-duplicate", request,
                     "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"});
  }
  for (const auto& c : cases) {
    const Signature signature = Sign(c.request, SuiteContext());
    EXPECT_EQ(signature.signature, c.signature) << c.name << "\n" << signature.canonical_request;
    EXPECT_NE(signature.authorization.find("Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "),
              std::string::npos)
        << c.name;
  }
}

TEST(SigV4Test, SuiteCanonicalFormsOfEncodedPathAndSecurityToken) {
  const Signature utf8 = Sign(SuiteGet("/\xE1\x88\xB4"), SuiteContext());
  EXPECT_EQ(utf8.canonical_request,
            "GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  SignableRequest duplicate = SuiteGet("/");
  duplicate.headers.emplace_back("My-Header1", "value2");
  duplicate.headers.emplace_back("my-header1", "value1");
  EXPECT_NE(CanonicalRequest(duplicate).find("my-header1:value2,value1\n"), std::string::npos);
  EXPECT_EQ(SignedHeaderNames(duplicate), "host;my-header1;x-amz-date");
}

SigningContext S3Context() {
  return {.access_key_id = "AKIAIOSFODNN7EXAMPLE",
          .secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
          .region = "us-east-1",
          .service = "s3",
          .timestamp = "20130524T000000Z"};
}

SignableRequest S3Request(std::string method, std::string path, std::string payload_hash) {
  SignableRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  request.payload_hash = payload_hash;
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"x-amz-content-sha256", payload_hash},
                     {"x-amz-date", "20130524T000000Z"}};
  return request;
}

TEST(SigV4Test, S3GetObjectWithRange) {
  SignableRequest request = S3Request("GET", "/test.txt", std::string(kEmptyPayloadHash));
  request.headers.emplace_back("Range", "bytes=0-9");
  const Signature signature = Sign(request, S3Context());
  EXPECT_EQ(signature.canonical_request,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
            "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(signature.string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(signature.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_EQ(signature.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, S3PutObjectSignsThePayloadHash) {
  const std::string body = "Welcome to Amazon S3.";
  const std::string hash = Sha256Hex(body);
  EXPECT_EQ(hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SignableRequest request = S3Request("PUT", "/test$file.text", hash);
  request.headers.emplace_back("Date", "Fri, 24 May 2013 00:00:00 GMT");
  request.headers.emplace_back("x-amz-storage-class", "REDUCED_REDUNDANCY");
  const Signature signature = Sign(request, S3Context());
  EXPECT_NE(signature.canonical_request.find("\n/test%24file.text\n"), std::string::npos);
  EXPECT_EQ(signature.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(SigV4Test, S3BucketQueries) {
  SignableRequest lifecycle = S3Request("GET", "/", std::string(kEmptyPayloadHash));
  lifecycle.query = {{"lifecycle", ""}};
  EXPECT_EQ(Sign(lifecycle, S3Context()).signature, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  SignableRequest list = S3Request("GET", "/", std::string(kEmptyPayloadHash));
  list.query = {{"prefix", "J"}, {"max-keys", "2"}};
  EXPECT_EQ(Sign(list, S3Context()).signature, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4Test, UnsignedPayloadIsTheLastLine) {
  SignableRequest request = S3Request("GET", "/big.parquet", std::string(kUnsignedPayload));
  const Signature signature = Sign(request, S3Context());
  EXPECT_TRUE(signature.canonical_request.ends_with("\nUNSIGNED-PAYLOAD"));
  EXPECT_NE(signature.canonical_request.find("x-amz-content-sha256:UNSIGNED-PAYLOAD\n"), std::string::npos);
  // A different payload hash is a different signature: the hash is signed.
  EXPECT_NE(signature.signature, Sign(S3Request("GET", "/big.parquet", std::string(kEmptyPayloadHash)), S3Context()).signature);
}

TEST(SigV4Test, UriEncodingOfKeys) {
  EXPECT_EQ(UriEncode("dir/a b+c=d&e.parquet", true), "dir/a%20b%2Bc%3Dd%26e.parquet");
  EXPECT_EQ(UriEncode("dir/a", false), "dir%2Fa");
  EXPECT_EQ(UriEncode("na\xC3\xAFve", true), "na%C3%AFve");
  EXPECT_EQ(AmzTimestamp(1369353600), "20130524T000000Z");
}

}  // namespace
}  // namespace strata::s3
