#include "strata/io/s3/s3_options.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <string_view>

namespace strata::s3 {
namespace {

using Section = std::map<std::string, std::string>;

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// One section of an AWS INI file ("[name]" lines, "key = value" lines, '#' and ';' comments).
// A missing file is an empty section; the files are small, so a line limit guards only
// against reading something that is not one.
Result<std::optional<Section>> ReadIniSection(const std::string& path, std::string_view wanted) {
  std::ifstream in(path);
  if (!in) return std::optional<Section>();
  std::optional<Section> found;
  bool inside = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number > 100'000) return Status::LimitExceeded("'{}' has over 100,000 lines: not an AWS profile file", path);
    const std::string_view text = Trim(line);
    if (text.empty() || text.front() == '#' || text.front() == ';') continue;
    if (text.front() == '[') {
      if (text.back() != ']') return Status::Invalid("'{}' line {}: a section header must end with ']'", path, number);
      inside = Trim(text.substr(1, text.size() - 2)) == wanted;
      if (inside && !found) found.emplace();
      continue;
    }
    if (!inside) continue;
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;  // nested settings ("s3 =" blocks) and the like
    (*found)[std::string(Trim(text.substr(0, equals)))] = std::string(Trim(text.substr(equals + 1)));
  }
  return found;
}

std::string Get(const std::optional<Section>& section, const char* key) {
  if (!section) return "";
  auto it = section->find(key);
  return it == section->end() ? "" : it->second;
}

std::string EnvOr(const GetEnv& env, const char* name, std::string fallback = "") {
  auto value = env(name);
  return value && !value->empty() ? *value : fallback;
}

struct Profile {
  std::string name;
  bool named_explicitly = false;
  std::optional<Section> credentials;
  std::optional<Section> config;
};

Result<Profile> LoadProfile(const S3Options& options, const GetEnv& env) {
  Profile profile;
  profile.name = options.profile;
  if (profile.name.empty()) profile.name = EnvOr(env, "AWS_PROFILE");
  profile.named_explicitly = !profile.name.empty();
  if (profile.name.empty()) profile.name = "default";
  const std::string home = EnvOr(env, "HOME");
  const std::string credentials_file =
      EnvOr(env, "AWS_SHARED_CREDENTIALS_FILE", home.empty() ? "" : home + "/.aws/credentials");
  const std::string config_file = EnvOr(env, "AWS_CONFIG_FILE", home.empty() ? "" : home + "/.aws/config");
  if (!credentials_file.empty()) {
    STRATA_ASSIGN_OR_RETURN(profile.credentials, ReadIniSection(credentials_file, profile.name));
  }
  if (!config_file.empty()) {
    // The config file names profiles "[profile x]", except "[default]".
    const std::string section = profile.name == "default" ? "default" : "profile " + profile.name;
    STRATA_ASSIGN_OR_RETURN(profile.config, ReadIniSection(config_file, section));
  }
  if (profile.named_explicitly && !profile.credentials && !profile.config) {
    return Status::Invalid("AWS profile '{}' is in neither '{}' nor '{}'", profile.name, credentials_file, config_file);
  }
  return profile;
}

Result<S3Credentials> ResolveCredentials(const S3Options& options, const GetEnv& env, const Profile& profile) {
  if (!options.access_key_id.empty() || !options.secret_access_key.empty()) {
    if (options.access_key_id.empty() || options.secret_access_key.empty()) {
      return Status::Invalid("S3 options give an access key id without a secret access key, or the other way round");
    }
    return S3Credentials{options.access_key_id, options.secret_access_key, options.session_token, "options"};
  }
  const std::string key = EnvOr(env, "AWS_ACCESS_KEY_ID");
  const std::string secret = EnvOr(env, "AWS_SECRET_ACCESS_KEY");
  if (!key.empty() || !secret.empty()) {
    if (key.empty() || secret.empty()) {
      return Status::Invalid("the environment sets only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
    return S3Credentials{key, secret, EnvOr(env, "AWS_SESSION_TOKEN"), "environment"};
  }
  for (const auto* section : {&profile.credentials, &profile.config}) {
    const std::string profile_key = Get(*section, "aws_access_key_id");
    const std::string profile_secret = Get(*section, "aws_secret_access_key");
    if (!profile_key.empty() && !profile_secret.empty()) {
      return S3Credentials{profile_key, profile_secret, Get(*section, "aws_session_token"),
                           "profile '" + profile.name + "'"};
    }
  }
  return Status::Invalid(
      "no AWS credentials: none in the S3 options, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or profile '{}' of "
      "~/.aws/credentials and ~/.aws/config (for a public bucket, ask for anonymous access)",
      profile.name);
}

}  // namespace

std::optional<std::string> ProcessEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

Status S3Options::Validate() const {
  STRATA_RETURN_NOT_OK(http.Validate());
  if (part_size < (int64_t{5} << 20) || part_size > (int64_t{5} << 30)) {
    return Status::Invalid("S3 part_size must be 5 MiB to 5 GiB (S3's limits), not {}", part_size);
  }
  if (max_parts_in_flight < 1 || max_parts_in_flight > 64) {
    return Status::Invalid("S3 max_parts_in_flight must be 1..64, not {}", max_parts_in_flight);
  }
  return Status::OK();
}

Result<S3Config> ResolveS3Config(const S3Options& options, const GetEnv& env) {
  STRATA_RETURN_NOT_OK(options.Validate());
  S3Config config;
  config.http = options.http;
  config.part_size = options.part_size;
  config.max_parts_in_flight = options.max_parts_in_flight;
  config.anonymous = options.anonymous;
  STRATA_ASSIGN_OR_RETURN(const Profile profile, LoadProfile(options, env));

  config.region = options.region;
  if (config.region.empty()) config.region = EnvOr(env, "AWS_REGION", EnvOr(env, "AWS_DEFAULT_REGION"));
  if (config.region.empty()) config.region = Get(profile.config, "region");
  if (config.region.empty()) config.region = "us-east-1";

  std::string endpoint = options.endpoint_url;
  if (endpoint.empty()) endpoint = EnvOr(env, "AWS_ENDPOINT_URL_S3", EnvOr(env, "AWS_ENDPOINT_URL"));
  if (endpoint.empty()) endpoint = Get(profile.config, "endpoint_url");
  if (endpoint.empty()) {
    config.scheme = "https";
    config.host = "s3." + config.region + ".amazonaws.com";
    config.path_style = options.path_style.value_or(false);
  } else {
    const size_t colon = endpoint.find("://");
    if (colon == std::string::npos) return Status::Invalid("S3 endpoint '{}' must start with http:// or https://", endpoint);
    config.scheme = endpoint.substr(0, colon);
    if (config.scheme != "http" && config.scheme != "https") {
      return Status::Invalid("S3 endpoint '{}' must start with http:// or https://", endpoint);
    }
    std::string rest = endpoint.substr(colon + 3);
    const size_t slash = rest.find('/');
    if (slash != std::string::npos) {
      config.base_path = rest.substr(slash);
      while (!config.base_path.empty() && config.base_path.back() == '/') config.base_path.pop_back();
      rest.resize(slash);
    }
    if (rest.empty()) return Status::Invalid("S3 endpoint '{}' names no host", endpoint);
    config.host = rest;
    config.path_style = options.path_style.value_or(true);
  }
  if (!config.anonymous) {
    STRATA_ASSIGN_OR_RETURN(config.credentials, ResolveCredentials(options, env, profile));
  }
  return config;
}

}  // namespace strata::s3
